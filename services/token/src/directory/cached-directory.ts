import { type Clock, sha256 } from '@sesame/platform';
import type { ClientDirectory } from './directory';

const MAX_ENTRIES = 10_000;

/** Runs before a call actually goes to the Directory (not for answers from memory). */
export type BeforeDirectoryCall = () => Promise<void>;

/** A ClientDirectory that can hand out views which run a gate before each call that reaches the Directory. */
export interface CachingDirectory extends ClientDirectory {
  through(beforeCall: BeforeDirectoryCall): ClientDirectory;
  /** Forgets every answer (token calls it on each admin event: evict-on-admin-events.ts). */
  clear(): void;
}

/**
 * Remembers successful Directory answers for a few seconds, so a burst of /token requests does not make one
 * gRPC round trip each (on the client_credentials path that round trip costs more CPU than the grant).
 * Authentications are keyed by sha256 of kind, id and secret (the secret itself is never held); a failed
 * authentication drops its entry at once. Concurrent identical lookups share one Directory call, so a burst
 * after an entry expires reserves one failure-throttle slot, not one per request (see auth-failures.ts).
 * `clear()` forgets everything: token calls it on every admin event (evictOnAdminEvents), so a revoked
 * credential or a removed app stops working as soon as the event arrives; `ttlMs` only bounds how long a
 * missed event could matter.
 */
export function cacheDirectory(inner: ClientDirectory, ttlMs: number, clock: Clock): CachingDirectory {
  const entries = new Map<string, { value: unknown; expiresAt: number }>();
  const loading = new Map<string, Promise<unknown>>();
  async function cached<T>(key: string, load: () => Promise<T | null>): Promise<T | null> {
    const now = clock.now();
    const hit = ttlMs > 0 ? entries.get(key) : undefined;
    if (hit && hit.expiresAt > now) return hit.value as T;
    const pending = loading.get(key);
    if (pending) return pending as Promise<T | null>;
    const promise = load().then((value) => {
      if (value === null || ttlMs <= 0) entries.delete(key);
      else {
        if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value as string);
        entries.set(key, { value, expiresAt: clock.now() + ttlMs });
      }
      return value;
    });
    loading.set(key, promise);
    try {
      return await promise;
    } finally {
      loading.delete(key);
    }
  }
  const view = (before: BeforeDirectoryCall | undefined): ClientDirectory => {
    const call = async <T>(fn: () => Promise<T>) => {
      await before?.();
      return fn();
    };
    return {
      getClient: (clientId) => cached(`client\u0000${clientId}`, () => call(() => inner.getClient(clientId))),
      authenticateClient: (clientId, secret) =>
        cached(sha256(`app\u0000${clientId}\u0000${secret}`), () =>
          call(() => inner.authenticateClient(clientId, secret)),
        ),
      authenticateApiCredentials: (credentialsId, secret) =>
        cached(sha256(`api\u0000${credentialsId}\u0000${secret}`), () =>
          call(() => inner.authenticateApiCredentials(credentialsId, secret)),
        ),
    };
  };
  return { ...view(undefined), through: (before) => view(before), clear: () => entries.clear() };
}
