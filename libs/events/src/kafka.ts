import { join } from 'node:path';
import { type Admin, Kafka, type logCreator, logLevel } from 'kafkajs';
import pino, { type Logger } from 'pino';
import { KafkaConsumer } from './kafka-consumer';
import { OutboxPublisher } from './kafka-producer';
import { KafkaSender, withTimeout } from './kafka-sender';
import { Outbox } from './outbox';
import { OutboxAdoption } from './outbox-adoption';
import type {
  ConsumerLag,
  ConsumerOptions,
  EventBus,
  EventConsumer,
  EventPublisher,
  PartitionOffset,
} from './port';
import { TOPIC_READY_MS, waitForLeaders } from './topic-ready';

export interface KafkaEventBusOptions {
  brokers: string[];
  clientId: string;
  /** Directory of the durable outbox (one set of files per clientId). */
  outboxDir: string;
  logger?: Logger;
  /** ms a publish waits for the broker before it goes to the outbox instead (default 1500). */
  sendTimeoutMs?: number;
  /**
   * The outbox lives on a volume shared by every pod of the service: this pod's outbox goes in
   * sharedDir/<pod>, and outboxes of pods that are gone are adopted (OutboxAdoption). outboxDir is then unused.
   */
  shared?: { sharedDir: string; pod: string; leaseMs: number };
  /** Replication of the topics ensureTopics creates; unset fields follow the broker count (topicReplication). */
  topics?: TopicSettings;
}

export interface TopicSettings {
  replicationFactor?: number;
  minInsyncReplicas?: number;
}

/**
 * The replication of a new topic on a cluster of `brokers` brokers: what is configured, else 3 copies with 2 in
 * sync for acks=all on three brokers or more (one broker may be lost without refusing a write), else one copy
 * per broker with 1 in sync (a development broker).
 */
export function topicReplication(
  brokers: number,
  settings: TopicSettings = {},
): { replicationFactor: number; minInsyncReplicas: number } {
  const replicationFactor = settings.replicationFactor ?? Math.max(1, Math.min(3, brokers));
  const minInsyncReplicas = settings.minInsyncReplicas ?? (replicationFactor >= 3 ? 2 : 1);
  return { replicationFactor, minInsyncReplicas };
}

const PARTITIONS = 3;
const CLOSE_FLUSH_MS = 3_000;
const PING_TIMEOUT_MS = 3_000;
/** How long a stopping ephemeral consumer waits for its group's deletion: it delays the pod's shutdown. */
const DELETE_GROUP_TIMEOUT_MS = 5_000;

/**
 * Kafka adapter (kafkajs). Publishing never fails or hangs on a broker outage: see OutboxPublisher.
 * The outbox is opened in the background; `KafkaEventBus.create` waits for it (and replays what a
 * previous process left there).
 */
export class KafkaEventBus implements EventBus {
  readonly publisher: EventPublisher;
  private readonly kafka: Kafka;
  private readonly logger: Logger;
  private readonly outbox: Promise<Outbox>;
  private readonly outboxPublisher: OutboxPublisher;
  private readonly consumers = new Set<KafkaConsumer>();
  private admin: Promise<Admin> | undefined;
  private readonly adoption: OutboxAdoption | undefined;
  private readonly topicSettings: TopicSettings;

  constructor(opts: KafkaEventBusOptions) {
    this.topicSettings = opts.topics ?? {};
    this.logger = opts.logger ?? pino({ level: 'warn', base: { lib: 'events' } });
    this.kafka = new Kafka({
      clientId: opts.clientId,
      brokers: opts.brokers,
      logLevel: logLevel.WARN,
      logCreator: kafkaLogCreator(this.logger),
      connectionTimeout: 1_000,
      requestTimeout: 10_000,
      retry: { initialRetryTime: 200, maxRetryTime: 1_000, retries: 3 },
    });
    const outboxDir = opts.shared ? join(opts.shared.sharedDir, opts.shared.pod) : opts.outboxDir;
    this.outbox = Outbox.open(outboxDir, opts.clientId, {
      warn: (msg, extra) => this.logger.warn(extra ?? {}, msg),
    });
    this.outbox.catch((err) =>
      this.logger.error({ err, dir: opts.outboxDir }, 'cannot open the event outbox'),
    );
    this.outboxPublisher = new OutboxPublisher(
      new KafkaSender(this.kafka),
      this.outbox,
      this.logger,
      opts.sendTimeoutMs ?? 1_500,
    );
    this.publisher = this.outboxPublisher;
    if (opts.shared) {
      const adoption = new OutboxAdoption({
        sharedDir: opts.shared.sharedDir,
        own: opts.shared.pod,
        outboxName: opts.clientId,
        leaseMs: opts.shared.leaseMs,
        publisher: this.outboxPublisher,
        logger: this.logger,
      });
      this.adoption = adoption;
      this.outbox.then(() => adoption.start()).catch(() => {});
    }
  }

  /** Constructs the bus and waits until its outbox is open (rejects if it cannot be). */
  static async create(opts: KafkaEventBusOptions): Promise<KafkaEventBus> {
    const bus = new KafkaEventBus(opts);
    await bus.outbox;
    return bus;
  }

  consumer(options: ConsumerOptions): EventConsumer {
    const consumer = new KafkaConsumer(
      this.kafka,
      options,
      this.logger,
      (c) => this.consumers.delete(c),
      (groupId) => this.deleteGroup(groupId),
    );
    this.consumers.add(consumer);
    return consumer;
  }

  consumerLag(): ConsumerLag[] {
    return [...this.consumers].flatMap((c) => c.lag());
  }

  async endOffsets(topic: string): Promise<PartitionOffset[]> {
    const offsets = await this.withAdmin((admin) => admin.fetchTopicOffsets(topic));
    return offsets
      .map(({ partition, offset }) => ({ partition, offset }))
      .sort((a, b) => a.partition - b.partition);
  }

  async ensureTopics(topics: string[]): Promise<void> {
    await this.withAdmin(async (admin) => {
      const existing = new Set(await admin.listTopics());
      const missing = [...new Set(topics)].filter((t) => !existing.has(t));
      if (!missing.length) return;
      const { brokers } = await admin.describeCluster();
      const { replicationFactor, minInsyncReplicas } = topicReplication(brokers.length, this.topicSettings);
      try {
        await admin.createTopics({
          topics: missing.map((topic) => ({
            topic,
            numPartitions: PARTITIONS,
            replicationFactor,
            configEntries: [{ name: 'min.insync.replicas', value: String(minInsyncReplicas) }],
          })),
          timeout: TOPIC_READY_MS,
        });
      } catch (err) {
        const errors = (err as { errors?: { type?: string }[] }).errors;
        // The topics were created, but kafkajs's own wait for their leaders retries only LEADER_NOT_AVAILABLE: on
        // several brokers, one that has not heard of a new topic yet answers UNKNOWN_TOPIC_OR_PARTITION.
        // waitForLeaders below accepts both.
        const unknownYet = (err as { type?: string }).type === 'UNKNOWN_TOPIC_OR_PARTITION';
        if (!unknownYet && !errors?.every((e) => e.type === 'TOPIC_ALREADY_EXISTS')) throw err;
      }
      await waitForLeaders(admin, missing);
    });
  }

  private async deleteGroup(groupId: string): Promise<void> {
    await withTimeout(
      this.withAdmin((admin) => admin.deleteGroups([groupId])),
      DELETE_GROUP_TIMEOUT_MS,
      `deleting consumer group ${groupId}`,
    );
  }

  async ping(): Promise<void> {
    await withTimeout(
      this.withAdmin((admin) => admin.describeCluster()),
      PING_TIMEOUT_MS,
      'kafka ping',
    );
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.consumers].map((c) => c.stop()));
    await this.adoption?.stop();
    await this.outboxPublisher.close(CLOSE_FLUSH_MS);
    const admin = this.admin;
    this.admin = undefined;
    await admin?.then((a) => a.disconnect()).catch(() => {});
  }

  /** Runs fn with a connected admin client; a failure drops the client so the next call reconnects. */
  private async withAdmin<T>(fn: (admin: Admin) => Promise<T>): Promise<T> {
    if (!this.admin) {
      const admin = this.kafka.admin({ retry: { initialRetryTime: 200, maxRetryTime: 1_000, retries: 3 } });
      this.admin = admin.connect().then(() => admin);
    }
    const current = this.admin;
    try {
      return await fn(await current);
    } catch (err) {
      if (this.admin === current) this.admin = undefined;
      current.then((a) => a.disconnect()).catch(() => {});
      throw err;
    }
  }
}

/** Messages kafkajs logs that we cause on purpose. */
const EXPECTED = ['Limiting retries for the idempotent producer'];

/** kafkajs namespaces whose errors are one broker connection failing: expected during an outage, retried. */
const CONNECTION_NAMESPACES = new Set(['Connection', 'BrokerPool']);

/** Routes kafkajs logs (WARN and up) to pino; connection failures are warnings, not errors. */
export function kafkaLogCreator(logger: Logger): logCreator {
  return () =>
    ({ namespace, level, log }) => {
      const { message, timestamp: _ts, logger: _name, ...extra } = log;
      if (EXPECTED.some((m) => message.startsWith(m))) return;
      const fields = { kafkajs: namespace, ...extra };
      if (level === logLevel.ERROR && !CONNECTION_NAMESPACES.has(namespace)) logger.error(fields, message);
      else if (level <= logLevel.WARN) logger.warn(fields, message);
      else if (level === logLevel.INFO) logger.info(fields, message);
      else logger.debug(fields, message);
    };
}
