import type { KeyValueStore } from '@sesame/kv';

const channel = (key: string) => `changed:${key}`;

/**
 * Tells the status requests waiting on the flow stored under `key` (flow/flow-status.ts), on whichever pod
 * they wait, that it changed or went away. Best effort, as the KV store's signals are: a signal lost only
 * delays a waiting page until it looks again by itself, so failing to send one never fails the change.
 */
export async function signalChange(kv: KeyValueStore, key: string): Promise<void> {
  await kv.signal(channel(key)).catch(() => undefined);
}

/** Calls `listener` at each change of the flow stored under `key` (signalChange); the result stops it. */
export function watchChanges(kv: KeyValueStore, key: string, listener: () => void): Promise<() => void> {
  return kv.listen(channel(key), listener);
}
