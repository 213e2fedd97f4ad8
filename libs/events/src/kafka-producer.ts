import { EventEmitter } from 'node:events';
import { type Kafka, type Message, Partitioners, type Producer } from 'kafkajs';
import type { Logger } from 'pino';
import type { Outbox, OutboxRecord } from './outbox';
import type { EventPublisher, OutgoingEvent } from './port';

interface Waiting {
  records: OutboxRecord[];
  resolve: () => void;
  reject: (err: unknown) => void;
}

/** Broker answers that retrying cannot change: the record is moved aside instead of blocking the rest. */
const POISON = new Set(['MESSAGE_TOO_LARGE', 'RECORD_LIST_TOO_LARGE', 'INVALID_RECORD', 'CORRUPT_MESSAGE']);
const REPLAY_MAX_COUNT = 500;
const REPLAY_MAX_BYTES = 512 * 1024;
const BACKOFF_MIN_MS = 200;
const BACKOFF_MAX_MS = 5_000;

/**
 * Publisher with a durable outbox. Publishes are queued and sent in groups, one group at a time (so a
 * failure can never reorder events). While the outbox is empty a group goes straight to Kafka; when that
 * fails or takes longer than sendTimeoutMs, the group is appended to the outbox instead, and so is
 * everything after it until a background loop has replayed the outbox, in order, to the broker.
 * After any failed send the producer is replaced (new producer id), so no stale idempotence sequence
 * numbers survive an outage; at worst the broker gets a duplicate.
 */
export class OutboxPublisher implements EventPublisher {
  private readonly queue: Waiting[] = [];
  private pumping: Promise<void> | undefined;
  private replaying: Promise<void> | undefined;
  private producer: { instance: Producer; connected: Promise<Producer> } | undefined;
  private accepted = 0;
  private done = 0;
  private closing = false;
  private stopped = false;
  private outage = false;
  private readonly progress = new EventEmitter().setMaxListeners(0);
  private wakeReplay: (() => void) | undefined;

  constructor(
    private readonly kafka: Kafka,
    private readonly outbox: Promise<Outbox>,
    private readonly logger: Logger,
    private readonly sendTimeoutMs: number,
  ) {
    outbox.then(
      (box) => {
        this.accepted += box.size();
        if (box.size() > 0) {
          this.logger.warn({ pending: box.size() }, 'event outbox holds events from before; replaying them');
          this.kickReplay(box);
        } else {
          const warmup = this.getProducer();
          const instance = this.producer?.instance;
          warmup.catch(() => this.resetProducer(instance));
        }
      },
      () => {},
    );
  }

  publish(topic: string, events: OutgoingEvent[]): Promise<void> {
    if (this.closing) return Promise.reject(new Error('event bus is closed'));
    if (!events.length) return Promise.resolve();
    const records = events.map((e) => ({
      topic,
      key: e.key,
      value: Buffer.from(e.value),
      headers: { ...(e.headers ?? {}) },
    }));
    this.accepted += records.length;
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ records, resolve, reject });
      this.pumping ??= this.pump().finally(() => {
        this.pumping = undefined;
      });
    });
  }

  pending(): number {
    return this.accepted - this.done;
  }

  async flush(timeoutMs = 30_000): Promise<void> {
    await this.outbox.catch(() => {});
    const target = this.accepted;
    if (this.done >= target) return;
    await new Promise<void>((resolve, reject) => {
      const check = () => {
        if (this.done < target) return;
        cleanup();
        resolve();
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(
          new Error(
            `flush timed out after ${timeoutMs} ms with ${this.pending()} events not yet acknowledged`,
          ),
        );
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        this.progress.off('progress', check);
      };
      this.progress.on('progress', check);
    });
  }

  /** Stops accepting, flushes for at most flushMs, then leaves the rest in the outbox. */
  async close(flushMs: number): Promise<void> {
    this.closing = true;
    await this.pumping;
    try {
      await this.flush(flushMs);
    } catch {
      this.logger.warn(
        { pending: this.pending() },
        'closing with events still in the outbox; they are replayed on restart',
      );
    }
    this.stopped = true;
    this.wakeReplay?.();
    await this.replaying;
    const producer = this.producer?.instance;
    this.producer = undefined;
    await producer?.disconnect().catch(() => {});
    await this.outbox.then((box) => box.close()).catch(() => {});
  }

  private settle(n: number) {
    this.done += n;
    this.progress.emit('progress');
  }

  private async pump(): Promise<void> {
    let box: Outbox;
    try {
      box = await this.outbox;
    } catch (err) {
      for (const w of this.queue.splice(0)) w.reject(err);
      this.settle(this.accepted - this.done);
      return;
    }
    while (this.queue.length) {
      const group = this.queue.splice(0, 1000);
      const records = group.flatMap((w) => w.records);
      if (box.size() === 0 && !this.replaying) {
        try {
          await this.send(records, this.sendTimeoutMs);
          this.settle(records.length);
          for (const w of group) w.resolve();
          continue;
        } catch (err) {
          this.resetProducer();
          this.enterOutage(err);
        }
      }
      try {
        await box.append(records);
        for (const w of group) w.resolve();
        this.kickReplay(box);
      } catch (err) {
        this.logger.error({ err }, 'event outbox append failed; rejecting the publish');
        this.settle(records.length);
        for (const w of group) w.reject(err);
      }
    }
  }

  private kickReplay(box: Outbox) {
    this.replaying ??= this.replay(box).finally(() => {
      this.replaying = undefined;
    });
  }

  private async replay(box: Outbox): Promise<void> {
    let backoff = BACKOFF_MIN_MS;
    let maxCount = REPLAY_MAX_COUNT;
    while (!this.stopped && box.size() > 0) {
      const chunk = box.peek(maxCount, REPLAY_MAX_BYTES);
      try {
        await this.send(chunk, Math.max(this.sendTimeoutMs, 5_000));
      } catch (err) {
        this.resetProducer();
        const poison = poisonType(err);
        if (poison && chunk.length > 1) {
          maxCount = 1; // find the record the broker refuses
          continue;
        }
        if (poison && (await this.quarantine(box, poison, err))) continue;
        this.enterOutage(err);
        this.logger.debug({ err, backoff }, 'outbox replay failed; retrying');
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, backoff);
          this.wakeReplay = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        this.wakeReplay = undefined;
        backoff = Math.min(backoff * 2, BACKOFF_MAX_MS);
        continue;
      }
      backoff = BACKOFF_MIN_MS;
      maxCount = REPLAY_MAX_COUNT;
      await box.ack(chunk.length).catch((err) => this.logger.error({ err }, 'event outbox ack failed'));
      this.settle(chunk.length);
    }
    if (box.size() === 0 && this.outage) {
      this.outage = false;
      this.logger.warn('event broker reachable again; outbox drained');
    }
  }

  /** Moves the head record, which the broker refuses for good, aside so it cannot block the rest. */
  private async quarantine(box: Outbox, reason: string, err: unknown): Promise<boolean> {
    const topic = box.peek(1)[0]?.topic;
    try {
      await box.reject(reason);
    } catch (e) {
      this.logger.error({ err: e }, 'event outbox: moving a refused event aside failed');
      return false;
    }
    this.logger.error(
      { err, topic },
      'broker refuses an event for good; moved it to the outbox .rejected file',
    );
    this.settle(1);
    return true;
  }

  private enterOutage(err: unknown) {
    if (this.outage) return;
    this.outage = true;
    this.logger.warn({ err }, 'event broker unreachable; buffering events in the durable outbox');
  }

  private async send(records: OutboxRecord[], timeoutMs: number): Promise<void> {
    const byTopic = new Map<string, Message[]>();
    for (const r of records) {
      const messages = byTopic.get(r.topic) ?? [];
      byTopic.set(r.topic, messages);
      messages.push({ key: r.key, value: r.value, headers: r.headers });
    }
    const topicMessages = [...byTopic].map(([topic, messages]) => ({ topic, messages }));
    const attempt = this.getProducer().then((p) =>
      p.sendBatch({ topicMessages, acks: -1, timeout: timeoutMs }),
    );
    await withTimeout(attempt, timeoutMs, 'event send');
  }

  private getProducer(): Promise<Producer> {
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
    return this.producer.connected;
  }

  /** Drops the producer after a failure: the next send connects a fresh one with a new producer id. */
  private resetProducer(only?: Producer) {
    const old = this.producer;
    if (only && old?.instance !== only) return;
    this.producer = undefined;
    old?.instance.disconnect().catch(() => {});
  }
}

function poisonType(err: unknown): string | undefined {
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
