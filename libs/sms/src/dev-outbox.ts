import { randomUUID } from 'node:crypto';
import { deliveryMetrics } from '@sesame/platform';
import type { Logger } from 'pino';
import { type OutgoingSms, type SmsSender, type StoredSms, checkSms, maskNumber } from './port';

export interface DevSmsOutboxOptions {
  /** How many messages to keep; the oldest go first. Default 200. */
  capacity?: number;
  now?: () => Date;
  logger?: Logger;
}

const outboxMetrics = deliveryMetrics('sms');

/** Keeps text messages in memory instead of sending them, for the embedded default and tests (bounded). */
export class DevSmsOutbox implements SmsSender {
  readonly capacity: number;
  private readonly messages: StoredSms[] = [];
  private readonly now: () => Date;
  private readonly logger: Logger | undefined;

  constructor({ capacity = 200, now = () => new Date(), logger }: DevSmsOutboxOptions = {}) {
    if (!Number.isInteger(capacity) || capacity < 1) {
      throw new RangeError(`DevSmsOutbox capacity must be a positive integer, got ${capacity}`);
    }
    this.capacity = capacity;
    this.now = now;
    this.logger = logger;
  }

  send(sms: OutgoingSms): Promise<{ id: string }> {
    return outboxMetrics.timed(
      'outbox',
      async () => this.keep(sms),
      () => 'refused',
    );
  }

  private keep(sms: OutgoingSms): { id: string } {
    const { to, text } = checkSms(sms);
    const id = randomUUID();
    this.messages.push({ id, to, text, sentAt: this.now().toISOString() });
    if (this.messages.length > this.capacity) this.messages.splice(0, this.messages.length - this.capacity);
    this.logger?.info({ to: maskNumber(to), messageId: id }, 'sms kept in the development outbox');
    return { id };
  }

  /** Newest first; copies, so callers cannot change what the outbox holds. */
  list(): StoredSms[] {
    return this.messages.map((m) => ({ ...m })).reverse();
  }

  async close(): Promise<void> {}
}
