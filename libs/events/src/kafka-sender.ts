import { type Kafka, type Message, Partitioners, type Producer } from 'kafkajs';
import type { OutboxRecord } from './outbox';

/** Broker answers that retrying cannot change: such a record is moved aside instead of blocking the rest. */
const POISON = new Set(['MESSAGE_TOO_LARGE', 'RECORD_LIST_TOO_LARGE', 'INVALID_RECORD']);

/**
 * Sends record groups with an idempotent kafkajs producer (acks all, one request in flight, murmur2
 * partitioner like the Java clients). After any failed or timed-out send the producer is replaced (new
 * producer id), so no stale idempotence sequence numbers survive an outage; at worst the broker gets a
 * duplicate of a send that did land.
 */
export class KafkaSender {
  private producer: { instance: Producer; connected: Promise<Producer> } | undefined;

  constructor(private readonly kafka: Kafka) {}

  /** Connects ahead of the first send; a failure only means the first send connects again. */
  warmup(): void {
    const { instance, connected } = this.current();
    connected.catch(() => this.reset(instance));
  }

  /** Sends in order (per topic-partition) and resolves once the broker acknowledged every record. */
  async send(records: OutboxRecord[], timeoutMs: number): Promise<void> {
    const byTopic = new Map<string, Message[]>();
    for (const r of records) {
      const messages = byTopic.get(r.topic) ?? [];
      byTopic.set(r.topic, messages);
      messages.push({ key: r.key, value: r.value, headers: r.headers });
    }
    const topicMessages = [...byTopic].map(([topic, messages]) => ({ topic, messages }));
    const { instance, connected } = this.current();
    try {
      const attempt = connected.then((p) => p.sendBatch({ topicMessages, acks: -1, timeout: timeoutMs }));
      await withTimeout(attempt, timeoutMs, 'event send');
    } catch (err) {
      this.reset(instance);
      throw err;
    }
  }

  async close(): Promise<void> {
    const old = this.producer;
    this.producer = undefined;
    await old?.instance.disconnect().catch(() => {});
  }

  private current() {
    if (!this.producer) {
      const instance = this.kafka.producer({
        idempotent: true,
        maxInFlightRequests: 1,
        createPartitioner: Partitioners.DefaultPartitioner,
        // Few, fast retries: an outage must fall back to the outbox within seconds, not hang the caller.
        retry: { retries: 3, initialRetryTime: 100, maxRetryTime: 1_000 },
      });
      const connected = instance.connect().then(() => instance);
      connected.catch(() => {});
      this.producer = { instance, connected };
    }
    return this.producer;
  }

  private reset(instance: Producer) {
    if (this.producer?.instance !== instance) return;
    this.producer = undefined;
    instance.disconnect().catch(() => {});
  }
}

/** The broker's reason when it refuses a record for good, else undefined. */
export function poisonType(err: unknown): string | undefined {
  for (let e = err as { type?: unknown; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (typeof e.type === 'string' && POISON.has(e.type)) return e.type;
  }
  return undefined;
}

export function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  p.catch(() => {});
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}
