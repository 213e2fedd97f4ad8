/**
 * Flow control of the in-process buses (MemoryEventBus, and EmbeddedEventBus through it), as a producer's
 * bounded buffer has it: a publish to a topic on which a running group is more than `maxLag` events behind
 * resolves only once that group is back under it, or after `maxWaitMs` (a stuck consumer must not stop the
 * platform). Every event a group is behind stays in memory; without this bound a flood of sign-in starts faster
 * than activity-log could fold them grew the embedded default by ~1.2 KB a start for as long as it lasted
 * (1.55 GB after 1,000,000 starts at 3,000/s: docs/performance.md).
 */
export const DEFAULT_MAX_CONSUMER_LAG = 20_000;
export const PUBLISH_WAIT_MAX_MS = 5_000;

export class PublishGate {
  /** Publishes waiting for a group to catch up, each with its topic. */
  private readonly held = new Set<{ topic: string; release: () => void }>();

  constructor(
    /** The events of a topic the running group furthest behind has yet to commit. */
    private readonly lagOf: (topic: string) => number,
    private readonly maxLag = DEFAULT_MAX_CONSUMER_LAG,
    private readonly maxWaitMs = PUBLISH_WAIT_MAX_MS,
  ) {}

  /** Undefined at once when `topic` is within bounds (no wait, no promise); else the wait. */
  whenCaughtUp(topic: string): Promise<void> | undefined {
    if (this.lagOf(topic) <= this.maxLag) return undefined;
    return new Promise<void>((resolve) => {
      const entry = {
        topic,
        release: () => {
          clearTimeout(timer);
          this.held.delete(entry);
          resolve();
        },
      };
      const timer = setTimeout(entry.release, this.maxWaitMs);
      timer.unref();
      this.held.add(entry);
    });
  }

  /** Lets the held publishes whose topic is back within bounds go (after a commit or a member leaving); all on close. */
  release(all = false): void {
    if (this.held.size === 0) return;
    const lag = new Map<string, number>();
    for (const entry of [...this.held]) {
      if (!lag.has(entry.topic)) lag.set(entry.topic, this.lagOf(entry.topic));
      if (all || lag.get(entry.topic)! <= this.maxLag) entry.release();
    }
  }
}
