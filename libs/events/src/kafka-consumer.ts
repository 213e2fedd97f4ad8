import type { Consumer, EachBatchPayload, IHeaders, Kafka, KafkaMessage } from 'kafkajs';
import type { Logger } from 'pino';
import type { BatchHandler, ConsumerLag, ConsumerOptions, DeliveredEvent, EventConsumer } from './port';
import { retryWhileUnknown } from './topic-ready';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const HEARTBEAT_MS = 1_000;
/**
 * How long stop() waits for the member to leave its group. kafkajs's disconnect waits for the batch in flight
 * and the group's answer; a broker slow to answer (seen on a broker holding hundreds of groups: the leave never
 * came within a service's 10 s drain) must not hold a shutdown past its bound. Past this, stop() goes on
 * without the leave: the broker drops the member after its session timeout (10 s), and what was not committed
 * is delivered again to the next member.
 */
export const LEAVE_TIMEOUT_MS = 5_000;

/**
 * Consumer group member on kafkajs. Each partition's fetched batch is handed over in chunks of at most
 * maxBatchSize events; a chunk's offsets are committed right after its handler resolves. A rejected
 * handler gets the same chunk again (with backoff, heartbeating meanwhile) and nothing is committed, so
 * if this member stops or loses the partition first, the next owner receives it from the committed offset.
 */
export class KafkaConsumer implements EventConsumer {
  private consumer: Consumer | undefined;
  private running = false;
  private relaunching: Promise<void> | undefined;
  private handler: BatchHandler | undefined;
  /** Per partition, as of the last committed chunk: what the metrics report as consumer lag. */
  private readonly lagByPartition = new Map<string, ConsumerLag>();

  constructor(
    private readonly kafka: Kafka,
    private readonly options: ConsumerOptions,
    private readonly logger: Logger,
    private readonly onStopped: (c: KafkaConsumer) => void,
    /** Deletes a group and its committed offsets from the broker (an ephemeral group, once its member left). */
    private readonly forgetGroup: (groupId: string) => Promise<void>,
    private readonly leaveTimeoutMs = LEAVE_TIMEOUT_MS,
  ) {}

  async start(handler: BatchHandler): Promise<void> {
    if (this.running) throw new Error('consumer already started');
    this.running = true;
    this.handler = handler;
    try {
      await this.launch();
    } catch (err) {
      this.running = false;
      this.onStopped(this);
      throw err;
    }
  }

  lag(): ConsumerLag[] {
    return [...this.lagByPartition.values()];
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.relaunching;
    const consumer = this.consumer;
    this.consumer = undefined;
    // kafkajs lets the batch in flight finish (its offsets are committed as each chunk completes), then leaves.
    const left = consumer ? await this.leave(consumer) : false;
    if (left && this.options.ephemeral) await this.forget();
    this.onStopped(this);
  }

  /** consumer.disconnect(), waited for at most leaveTimeoutMs: true once it left, false when the time ran out. */
  private async leave(consumer: Consumer): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), this.leaveTimeoutMs);
    });
    try {
      // A leave failing after the time ran out settles nothing more (race keeps a handler on it: not unhandled).
      const left = await Promise.race([consumer.disconnect().then(() => true as const), timedOut]);
      if (!left)
        this.logger.warn(
          { groupId: this.options.groupId, timeoutMs: this.leaveTimeoutMs },
          'the event consumer did not leave its group in time; stopping without it (the broker drops the member after its session timeout, and uncommitted events go to the next member)',
        );
      return left;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Removes the ephemeral group this member has left; a failure leaves it to the broker's offset retention. */
  private async forget(): Promise<void> {
    const { groupId } = this.options;
    try {
      await this.forgetGroup(groupId);
    } catch (err) {
      this.logger.warn(
        { err, groupId },
        'could not delete the ephemeral consumer group; the broker expires its offsets',
      );
    }
  }

  private async launch(): Promise<void> {
    const { groupId, topics, fromBeginning = true } = this.options;
    const consumer = this.kafka.consumer({
      groupId,
      sessionTimeout: 10_000,
      rebalanceTimeout: 10_000,
      heartbeatInterval: HEARTBEAT_MS,
      maxWaitTimeInMs: 1_000,
      // kafkajs restarts a crashed consumer after retriable errors (broker gone); keep those attempts coming.
      retry: { initialRetryTime: 300, maxRetryTime: 3_000, retries: 8 },
    });
    this.consumer = consumer;
    consumer.on(consumer.events.CRASH, ({ payload }) => {
      if (payload.restart || !this.running || this.consumer !== consumer) return;
      this.logger.error(
        { err: payload.error, groupId },
        'event consumer crashed for good; starting a new one',
      );
      this.relaunching ??= this.relaunch(consumer).finally(() => {
        this.relaunching = undefined;
      });
    });
    try {
      await consumer.connect();
      // On several brokers, the one asked may not have heard of a topic created a moment ago.
      await retryWhileUnknown(() => consumer.subscribe({ topics, fromBeginning }));
      await consumer.run({
        autoCommit: false,
        eachBatchAutoResolve: false,
        eachBatch: (payload) => this.eachBatch(payload),
      });
    } catch (err) {
      await consumer.disconnect().catch(() => {});
      throw err;
    }
  }

  private async relaunch(old: Consumer): Promise<void> {
    await old.disconnect().catch(() => {});
    for (let backoff = 1_000; this.running; backoff = Math.min(backoff * 2, 10_000)) {
      await sleep(backoff);
      if (!this.running) return;
      try {
        await this.launch();
        return;
      } catch (err) {
        this.logger.warn({ err, groupId: this.options.groupId }, 'event consumer restart failed; retrying');
      }
    }
  }

  private async eachBatch(payload: EachBatchPayload): Promise<void> {
    const { batch, resolveOffset, heartbeat, commitOffsetsIfNecessary, isRunning, isStale } = payload;
    const { topic, partition } = batch;
    const max = Math.max(1, this.options.maxBatchSize ?? 500);
    for (let i = 0; i < batch.messages.length; i += max) {
      const chunk = batch.messages.slice(i, i + max);
      const events = chunk.map((m) => toDelivered(topic, partition, m));
      for (let backoff = 100; ; backoff = Math.min(backoff * 2, 5_000)) {
        if (!isRunning() || isStale()) return;
        // A slow store must not cost the partition: keep heartbeating while the handler runs (kafkajs sends at
        // most one per heartbeatInterval), so the group only moves the partition when this member is gone.
        const beating = setInterval(() => void heartbeat().catch(() => {}), HEARTBEAT_MS);
        try {
          await this.handler!(events);
          break;
        } catch (err) {
          this.logger.warn(
            { err, topic, partition, offset: chunk[0]!.offset },
            'event handler failed; redelivering',
          );
          await sleep(backoff);
          await heartbeat();
        } finally {
          clearInterval(beating);
        }
      }
      const last = chunk[chunk.length - 1]!;
      resolveOffset(last.offset);
      const next = (BigInt(last.offset) + 1n).toString();
      this.lagByPartition.set(`${topic}\u0000${partition}`, {
        groupId: this.options.groupId,
        topic,
        partition,
        lag: Math.max(0, Number(BigInt(batch.highWatermark) - BigInt(next))),
      });
      try {
        await commitOffsetsIfNecessary({ topics: [{ topic, partitions: [{ partition, offset: next }] }] });
      } catch (err) {
        // kafkajs rejoins the group and fetches again from the last committed offset: these events come again.
        this.logger.warn(
          { err, groupId: this.options.groupId, topic, partition, offset: next },
          'could not commit the offsets of handled events; they will be delivered again',
        );
        throw err;
      }
      await heartbeat();
    }
  }
}

function toDelivered(topic: string, partition: number, m: KafkaMessage): DeliveredEvent {
  return {
    topic,
    partition,
    offset: m.offset,
    key: m.key ? m.key.toString('utf8') : '',
    value: m.value ?? Buffer.alloc(0),
    headers: headersOf(m.headers),
    timestamp: Number(m.timestamp),
  };
}

function headersOf(raw: IHeaders | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, v] of Object.entries(raw ?? {})) {
    const first = Array.isArray(v) ? v[0] : v;
    if (first !== undefined) out[name] = first.toString();
  }
  return out;
}
