import { EventEmitter } from 'node:events';
import type { Logger } from 'pino';
import { type KafkaSender, poisonType } from './kafka-sender';
import type { Outbox, OutboxRecord } from './outbox';
import type { EventPublisher, OutgoingEvent } from './port';

interface Waiting {
  records: OutboxRecord[];
  resolve: () => void;
  reject: (err: unknown) => void;
}

/** Upper bounds of one send: well under the broker's default 1 MiB per record batch. */
const SEND_MAX_COUNT = 500;
const SEND_MAX_BYTES = 512 * 1024;
const BACKOFF_MIN_MS = 200;
const BACKOFF_MAX_MS = 5_000;

/**
 * Publisher with a durable outbox. Publishes are queued and sent in groups, one group at a time (so a
 * failure can never reorder events). While the outbox is empty a group goes straight to Kafka; when that
 * fails or takes longer than sendTimeoutMs, the group is appended to the outbox instead, and so is
 * everything after it until a background loop has replayed the outbox, in order, to the broker.
 * Progress is counted in acceptance order: flush() waits until everything accepted before it is acked.
 */
export class OutboxPublisher implements EventPublisher {
  private readonly queue: Waiting[] = [];
  private pumping: Promise<void> | undefined;
  private replaying: Promise<void> | undefined;
  private accepted = 0;
  private done = 0;
  private closing = false;
  private stopped = false;
  private outage = false;
  private readonly progress = new EventEmitter().setMaxListeners(0);
  private wakeReplay: (() => void) | undefined;

  constructor(
    private readonly sender: KafkaSender,
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
          this.sender.warmup();
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
      this.startPump();
    });
  }

  /**
   * A publish made right after an earlier one resolved can land while pump() has returned but its finally
   * has not run yet; restarting from the finally keeps such a publish from waiting forever.
   */
  private startPump(): void {
    this.pumping ??= this.pump().finally(() => {
      this.pumping = undefined;
      if (this.queue.length) this.startPump();
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
    await this.sender.close();
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
      const group = this.takeGroup();
      const records = group.flatMap((w) => w.records);
      if (box.size() === 0 && !this.replaying) {
        try {
          await this.sender.send(records, this.sendTimeoutMs);
          this.settle(records.length);
          for (const w of group) w.resolve();
          continue;
        } catch (err) {
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

  /** Queued publishes for one send (group commit): at least one, then up to the send bounds. */
  private takeGroup(): Waiting[] {
    let count = 0;
    let bytes = 0;
    let n = 0;
    for (const w of this.queue) {
      for (const r of w.records) bytes += r.value.length + r.key.length + 64;
      count += w.records.length;
      if (n > 0 && (count > SEND_MAX_COUNT || bytes > SEND_MAX_BYTES)) break;
      n++;
    }
    return this.queue.splice(0, n);
  }

  private kickReplay(box: Outbox) {
    this.replaying ??= this.replay(box).finally(() => {
      this.replaying = undefined;
    });
  }

  private async replay(box: Outbox): Promise<void> {
    let backoff = BACKOFF_MIN_MS;
    let maxCount = SEND_MAX_COUNT;
    while (!this.stopped && box.size() > 0) {
      const chunk = box.peek(maxCount, SEND_MAX_BYTES);
      try {
        await this.sender.send(chunk, Math.max(this.sendTimeoutMs, 5_000));
      } catch (err) {
        const poison = poisonType(err);
        if (poison && chunk.length > 1) {
          maxCount = Math.ceil(chunk.length / 2); // narrow down to the record the broker refuses
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
      maxCount = Math.min(SEND_MAX_COUNT, maxCount * 2);
      await box.ack(chunk.length).catch((err) => this.logger.error({ err }, 'event outbox ack failed'));
      this.settle(chunk.length);
    }
    if (box.size() === 0 && this.outage) {
      this.outage = false;
      this.logger.warn('event outbox drained: the broker has every buffered event');
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
    this.logger.warn(
      { err },
      'event send failed (broker unreachable?); buffering events in the durable outbox',
    );
  }
}
