import { randomUUID } from 'node:crypto';
import type { DeliveredEvent, EventBus } from './port';

export interface ReadTopicOptions {
  /** Keeps only the events this accepts (e.g. the test's own, on a shared topic). */
  filter?: (event: DeliveredEvent) => boolean;
  timeoutMs?: number;
}

/**
 * Test support: reads a topic from its beginning in a group of its own until `n` events (that pass the
 * filter) arrived or the timeout passed, and returns what it got (the caller asserts on it).
 */
export async function readTopicUntil(
  bus: EventBus,
  topic: string,
  n: number,
  { filter = () => true, timeoutMs = 30_000 }: ReadTopicOptions = {},
): Promise<DeliveredEvent[]> {
  const got: DeliveredEvent[] = [];
  const reader = bus.consumer({ groupId: `reader-${randomUUID()}`, topics: [topic], fromBeginning: true });
  await reader.start(async (batch) => void got.push(...batch.filter(filter)));
  const deadline = Date.now() + timeoutMs;
  while (got.length < n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  await reader.stop();
  return got;
}
