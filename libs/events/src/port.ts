export interface OutgoingEvent {
  /** Partition key: all events with one key stay in order (flowId, tenantId, ...). */
  key: string;
  value: Uint8Array;
  headers?: Record<string, string>;
}

export interface DeliveredEvent {
  topic: string;
  partition: number;
  offset: string;
  key: string;
  value: Buffer;
  headers: Record<string, string>;
  /** Broker (or append) time, epoch ms. */
  timestamp: number;
}

export interface EventPublisher {
  /**
   * Accepts events for delivery. Resolves once they are durably accepted: acknowledged by the broker, or
   * written to the durable outbox when the broker cannot be reached (they are replayed, in order, when it
   * returns). A broker outage never rejects the call and never loses an event. Per-key order is kept.
   */
  publish(topic: string, events: OutgoingEvent[]): Promise<void>;
  /** Resolves when everything accepted so far has reached the broker (or rejects after the timeout). */
  flush(timeoutMs?: number): Promise<void>;
  /** Events accepted but not yet acknowledged by the broker. */
  pending(): number;
}

/** Receives a batch from one partition, in offset order. Resolving commits the batch; rejecting redelivers it. */
export type BatchHandler = (events: DeliveredEvent[]) => Promise<void>;

export interface ConsumerOptions {
  groupId: string;
  topics: string[];
  /** For a group with no committed offset: start at the oldest event (default true). */
  fromBeginning?: boolean;
  maxBatchSize?: number;
  /**
   * In-process buses (memory, embedded): once woken by new events, wait this long before taking the batch, so
   * the events of a burst come as one batch (what Kafka's fetch.max.wait.ms does for a broker). A consumer
   * that writes each batch (activity-log) then folds a flow's several events in one write instead of one each.
   * Default 0: the batch is taken at once. Kafka ignores it (its consumer batches by fetch).
   */
  lingerMs?: number;
  /**
   * A group used by one member only, for that member's lifetime (e.g. one per pod, so every pod sees every
   * event): `stop()` removes the group, with its committed offsets, from the bus once the member has left,
   * instead of leaving it behind on every restart. A member that ends without `stop()` (a crash, a killed pod)
   * cannot: its group stays until the bus's offset retention lets it go (on Kafka, the broker's
   * offsets.retention.minutes, 7 days by default). A failed removal is logged and `stop()` still resolves.
   */
  ephemeral?: boolean;
}

export interface EventConsumer {
  /** Joins the group and starts delivering batches; resolves once running. */
  start(handler: BatchHandler): Promise<void>;
  /** Lets the batch in flight finish, commits its offsets and leaves the group. */
  stop(): Promise<void>;
}

/** How far a consumer group is behind on one partition: events after its position, up to the high watermark. */
export interface ConsumerLag {
  groupId: string;
  topic: string;
  partition: number;
  lag: number;
}

/** A position in one partition of a topic: the offset the partition's next event gets. */
export interface PartitionOffset {
  partition: number;
  offset: string;
}

export interface EventBus {
  readonly publisher: EventPublisher;
  /** Lag of this bus's consumers, per partition, as of each partition's last batch (empty when unknown). */
  consumerLag(): ConsumerLag[];
  consumer(options: ConsumerOptions): EventConsumer;
  /**
   * Where each partition of a topic ends now (Kafka's high watermark): a reader that has reached these
   * offsets has read every event the broker had acknowledged before the call.
   */
  endOffsets(topic: string): Promise<PartitionOffset[]>;
  /** Creates the topics if they do not exist. */
  ensureTopics(topics: string[]): Promise<void>;
  ping(): Promise<void>;
  /** Flushes what it can within a bounded time, keeps the rest in the outbox, disconnects. */
  close(): Promise<void>;
}
