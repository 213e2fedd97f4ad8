// Over 300 lines on purpose: the bus and its consumer share one protocol over the bus's private state (claim,
// nextBatch, commit, release, the waiting consumers); split into two files, that protocol would become public.
import type {
  BatchHandler,
  ConsumerLag,
  ConsumerOptions,
  DeliveredEvent,
  EventBus,
  EventConsumer,
  EventPublisher,
  OutgoingEvent,
  PartitionOffset,
} from './port';
import { PublishGate } from './publish-gate';

const PARTITIONS = 3;

export function partitionOf(key: string, partitions = PARTITIONS): number {
  let h = 0;
  for (let i = 0; i < key.length; i++) h = (Math.imul(h, 31) + key.charCodeAt(i)) | 0;
  return Math.abs(h) % partitions;
}

/** Events of one partition from offset `base` on (older ones were let go: see MemoryEventBus). */
interface PartitionLog {
  base: number;
  events: DeliveredEvent[];
}

/** Newest events kept per partition even once every running consumer group has them (late readers). */
export const DEFAULT_RETAINED_EVENTS = 10_000;
/** Let go of old events in chunks: dropping from the front of an array copies what stays. */
const TRIM_CHUNK = 1024;

/**
 * In-memory event bus for the embedded one-machine default and unit tests: partitioned topics, consumer
 * groups with committed offsets (a restarted consumer resumes after its last commit), at-least-once delivery.
 * One active member per group receives every partition.
 *
 * Retention, as a broker has one: an event is let go once every consumer group with a running member has
 * committed it and it is not among the newest `retainedEvents` of its partition, so a platform that runs for
 * weeks does not keep every event it ever carried. A group that starts (or restarts) behind what is kept reads
 * from the oldest event kept, as a Kafka consumer does after retention.
 *
 * Flow control (PublishGate): a publish to a topic on which a running group is more than `maxConsumerLag`
 * events behind waits for it, so publishers slow to the pace of the slowest consumer instead of the events
 * piling up in memory. Callers that await their publish (a sign-in's first page) wait with it.
 */
export class MemoryEventBus implements EventBus {
  private readonly logs = new Map<string, PartitionLog[]>();
  /** Committed offsets: group → topic → one offset per partition. */
  private readonly committed = new Map<string, Map<string, number[]>>();
  /** Consumers waiting for something to do: woken by a publish, a member leaving, or the bus closing. */
  private readonly waiting = new Set<() => void>();
  private readonly activeMembers = new Map<string, MemoryConsumer>();
  private readonly retainedEvents: number;
  private readonly gate: PublishGate;
  readonly publisher: EventPublisher;

  constructor(options: { retainedEvents?: number; maxConsumerLag?: number; publishWaitMaxMs?: number } = {}) {
    this.retainedEvents = options.retainedEvents ?? DEFAULT_RETAINED_EVENTS;
    this.gate = new PublishGate(
      (topic) => this.lagOf(topic),
      options.maxConsumerLag,
      options.publishWaitMaxMs,
    );
    const bus = this;
    this.publisher = {
      async publish(topic: string, events: OutgoingEvent[]) {
        await bus.accept(topic, events);
      },
      async flush() {},
      pending: () => 0,
    };
  }

  private partitions(topic: string): PartitionLog[] {
    let parts = this.logs.get(topic);
    if (!parts) {
      parts = Array.from({ length: PARTITIONS }, () => ({ base: 0, events: [] }));
      this.logs.set(topic, parts);
    }
    return parts;
  }

  /** Appends published events and wakes the consumers (a durable bus writes them down first). */
  protected accept(topic: string, events: OutgoingEvent[]): void | Promise<void> {
    for (const event of events) this.append(topic, event);
    this.wakeAll();
    return this.whenCaughtUp(topic);
  }

  /** How many events of `topic` the running group furthest behind has yet to commit (0 when none runs). */
  lagOf(topic: string): number {
    let worst = 0;
    for (const groupId of this.activeMembers.keys()) {
      let total = 0;
      for (const partition of this.behind(groupId, topic) ?? []) total += partition;
      worst = Math.max(worst, total);
    }
    return worst;
  }

  /** Per partition, the events of `topic` a group has yet to commit; undefined when it has not read the topic. */
  private behind(groupId: string, topic: string): number[] | undefined {
    const offsets = this.offsetsOf(groupId, topic);
    const logs = this.logs.get(topic);
    if (!offsets || !logs) return undefined;
    return logs.map(
      (log, partition) => log.base + log.events.length - Math.max(offsets[partition]!, log.base),
    );
  }

  /** Undefined when every running group is within bounds of `topic`; else the wait (PublishGate). */
  protected whenCaughtUp(topic: string): Promise<void> | undefined {
    return this.gate.whenCaughtUp(topic);
  }

  /** Appends one event to its partition's log (at `timestamp`: an event read back from a store keeps its own). */
  protected append(topic: string, event: OutgoingEvent, timestamp = Date.now()): DeliveredEvent {
    const partition = partitionOf(event.key);
    const log = this.partitions(topic)[partition]!;
    const delivered: DeliveredEvent = {
      topic,
      partition,
      offset: String(log.base + log.events.length),
      key: event.key,
      value: Buffer.from(event.value),
      headers: { ...(event.headers ?? {}) },
      timestamp,
    };
    log.events.push(delivered);
    return delivered;
  }

  /** How many events of the topic are kept now (tests of retention). */
  retained(topic: string): number {
    return this.partitions(topic).reduce((n, log) => n + log.events.length, 0);
  }

  /** Resolves at the next publish (or leave, or close). */
  waitForWork(): Promise<void> {
    return new Promise((resolve) => this.waiting.add(resolve));
  }

  /** Wakes every waiting consumer. */
  wakeAll(): void {
    if (this.waiting.size === 0) return;
    const waiting = [...this.waiting];
    this.waiting.clear();
    for (const wake of waiting) wake();
  }

  /** A group's committed offsets of a topic, one per partition (undefined: none committed yet). */
  protected offsetsOf(groupId: string, topic: string): number[] | undefined {
    return this.committed.get(groupId)?.get(topic);
  }

  /** Lets go of the events of a partition every running group has committed, past the newest kept. */
  private trim(topic: string, partition: number): void {
    const log = this.partitions(topic)[partition]!;
    let upTo = log.base + log.events.length - this.retainedEvents;
    if (upTo - log.base < TRIM_CHUNK) return;
    for (const groupId of this.activeMembers.keys()) {
      const at = this.offsetsOf(groupId, topic)?.[partition];
      if (at !== undefined) upTo = Math.min(upTo, at);
    }
    const drop = upTo - log.base;
    if (drop < TRIM_CHUNK) return;
    log.events.splice(0, drop);
    log.base += drop;
  }

  /** Next uncommitted batch for a group, or undefined when it is caught up. */
  nextBatch(
    groupId: string,
    topics: string[],
    fromBeginning: boolean,
    max: number,
  ): DeliveredEvent[] | undefined {
    let groupOffsets = this.committed.get(groupId);
    if (!groupOffsets) {
      groupOffsets = new Map();
      this.committed.set(groupId, groupOffsets);
    }
    for (const topic of topics) {
      const logs = this.partitions(topic);
      let offsets = groupOffsets.get(topic);
      if (!offsets) {
        offsets = logs.map((log) => (fromBeginning ? 0 : log.base + log.events.length));
        groupOffsets.set(topic, offsets);
      }
      for (let partition = 0; partition < logs.length; partition++) {
        const log = logs[partition]!;
        // Behind what is kept (retention let it go): from the oldest event kept.
        const from = Math.max(offsets[partition]!, log.base) - log.base;
        if (from < log.events.length) return log.events.slice(from, from + max);
      }
    }
    return undefined;
  }

  commit(groupId: string, batch: DeliveredEvent[]): void {
    const last = batch[batch.length - 1];
    if (!last) return;
    const offsets = this.offsetsOf(groupId, last.topic);
    if (offsets) offsets[last.partition] = Number(last.offset) + 1;
    else {
      const fresh = this.partitions(last.topic).map(() => 0);
      fresh[last.partition] = Number(last.offset) + 1;
      if (!this.committed.has(groupId)) this.committed.set(groupId, new Map());
      this.committed.get(groupId)!.set(last.topic, fresh);
    }
    this.trim(last.topic, last.partition);
    this.gate.release();
  }

  claim(groupId: string, member: MemoryConsumer): boolean {
    const current = this.activeMembers.get(groupId);
    if (current && current !== member) return false;
    this.activeMembers.set(groupId, member);
    return true;
  }

  release(groupId: string, member: MemoryConsumer): void {
    if (this.activeMembers.get(groupId) === member) this.activeMembers.delete(groupId);
    this.wakeAll();
    this.gate.release();
  }

  /** Drops a group's committed offsets (an ephemeral group whose member stopped: ConsumerOptions.ephemeral). */
  forget(groupId: string): void {
    this.committed.delete(groupId);
  }

  /** The groups the bus keeps offsets for (tests): each group that has read or committed, until forgotten. */
  groups(): string[] {
    return [...this.committed.keys()];
  }

  consumer(options: ConsumerOptions): EventConsumer {
    return new MemoryConsumer(this, options);
  }

  /** Each running group's events yet to commit, per partition of each topic it reads. */
  consumerLag(): ConsumerLag[] {
    const lags: ConsumerLag[] = [];
    for (const groupId of this.activeMembers.keys()) {
      for (const topic of this.committed.get(groupId)?.keys() ?? []) {
        this.behind(groupId, topic)?.forEach((lag, partition) =>
          lags.push({ groupId, topic, partition, lag }),
        );
      }
    }
    return lags;
  }

  async endOffsets(topic: string): Promise<PartitionOffset[]> {
    return this.partitions(topic).map((log, partition) => ({
      partition,
      offset: String(log.base + log.events.length),
    }));
  }

  async ensureTopics(topics: string[]) {
    for (const topic of topics) this.partitions(topic);
  }

  async ping() {}

  async close() {
    this.wakeAll();
    this.gate.release(true);
  }
}

class MemoryConsumer implements EventConsumer {
  private running = false;
  private loop: Promise<void> | undefined;

  constructor(
    private readonly bus: MemoryEventBus,
    private readonly options: ConsumerOptions,
  ) {}

  async start(handler: BatchHandler) {
    if (this.running) throw new Error('consumer already started');
    this.running = true;
    this.loop = this.run(handler);
  }

  private async run(handler: BatchHandler) {
    const { groupId, topics, fromBeginning = true, maxBatchSize = 500, lingerMs = 0 } = this.options;
    let backoff = 50;
    while (this.running) {
      const batch = this.bus.claim(groupId, this)
        ? this.bus.nextBatch(groupId, topics, fromBeginning, maxBatchSize)
        : undefined;
      if (!batch) {
        await this.bus.waitForWork();
        if (lingerMs > 0 && this.running) await new Promise((r) => setTimeout(r, lingerMs));
        continue;
      }
      try {
        await handler(batch);
        this.bus.commit(groupId, batch);
        backoff = 50;
      } catch {
        await new Promise((r) => setTimeout(r, backoff));
        backoff = Math.min(backoff * 2, 2000);
      }
    }
  }

  async stop() {
    this.running = false;
    this.bus.wakeAll();
    await this.loop;
    this.bus.release(this.options.groupId, this);
    if (this.options.ephemeral && this.loop) this.bus.forget(this.options.groupId);
  }
}
