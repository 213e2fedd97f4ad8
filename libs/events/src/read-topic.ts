import { randomUUID } from 'node:crypto';
import type { DeliveredEvent, EventBus, PartitionOffset } from './port';

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

/**
 * Test support: reads a topic from its beginning in a group of its own up to where it ends now
 * (EventBus.endOffsets, taken before reading), and returns exactly the events before that end (that pass
 * the filter), duplicates included. Needs no count and no quiet period: a test that asserts on the result
 * sees everything published before the call, and nothing published after it. Rejects when the reader does
 * not reach the end within the timeout.
 */
export async function readTopicToEnd(
  bus: EventBus,
  topic: string,
  { filter = () => true, timeoutMs = 30_000 }: ReadTopicOptions = {},
): Promise<DeliveredEvent[]> {
  const progress = new TopicProgress(topic, await bus.endOffsets(topic));
  const got: DeliveredEvent[] = [];
  const reader = bus.consumer({ groupId: `reader-${randomUUID()}`, topics: [topic], fromBeginning: true });
  await reader.start(async (batch) => {
    got.push(...batch.filter((e) => progress.beforeEnd(e) && filter(e)));
    progress.record(batch);
  });
  try {
    await progress.reached(timeoutMs);
  } finally {
    await reader.stop();
  }
  return got;
}

/**
 * Test support: how far a consumer of one topic got, per partition, against where the topic ended when the
 * ends were taken (EventBus.endOffsets). Record every batch the consumer has handled; `reached` resolves
 * once every partition is handled up to its end: what was published before then has all been processed.
 */
export class TopicProgress {
  private readonly ends = new Map<number, bigint>();
  private readonly next = new Map<number, bigint>();
  private onRecord: (() => void) | undefined;

  constructor(
    readonly topic: string,
    ends: PartitionOffset[],
  ) {
    for (const { partition, offset } of ends) this.ends.set(partition, BigInt(offset));
  }

  /** Notes a batch the consumer has handled (events of other topics are ignored). */
  record(batch: DeliveredEvent[]): void {
    for (const e of batch) {
      if (e.topic !== this.topic) continue;
      const after = BigInt(e.offset) + 1n;
      if (after > (this.next.get(e.partition) ?? 0n)) this.next.set(e.partition, after);
    }
    this.onRecord?.();
  }

  /** Whether an event lies before the end taken (it was published before the ends were read). */
  beforeEnd(event: DeliveredEvent): boolean {
    return event.topic === this.topic && BigInt(event.offset) < (this.ends.get(event.partition) ?? 0n);
  }

  /** Every partition handled up to its end. */
  done(): boolean {
    for (const [partition, end] of this.ends) if ((this.next.get(partition) ?? 0n) < end) return false;
    return true;
  }

  /** Resolves once done; rejects after timeoutMs, naming each partition's position and end. */
  reached(timeoutMs: number): Promise<void> {
    if (this.done()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.onRecord = undefined;
        reject(new Error(`${this.topic} not read to its end within ${timeoutMs} ms: ${this.describe()}`));
      }, timeoutMs);
      this.onRecord = () => {
        if (!this.done()) return;
        clearTimeout(timer);
        this.onRecord = undefined;
        resolve();
      };
    });
  }

  /** partition: position/end for each partition, e.g. "0: 3/5, 1: 0/0". */
  describe(): string {
    return [...this.ends]
      .map(([partition, end]) => `${partition}: ${this.next.get(partition) ?? 0n}/${end}`)
      .join(', ');
  }
}
