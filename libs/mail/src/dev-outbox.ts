import { randomUUID } from 'node:crypto';
import { deliveryMetrics } from '@sesame/platform';
import type { Logger } from 'pino';
import { type MailSender, type OutgoingMail, type StoredMail, checkMail, mailLogFields } from './port';

export interface DevOutboxOptions {
  /** How many messages to keep; the oldest go first. Default 200. */
  capacity?: number;
  now?: () => Date;
  logger?: Logger;
}

const outboxMetrics = deliveryMetrics('mail');

/**
 * Keeps mail in memory instead of sending it, for the embedded default and tests. Bounded, so a
 * long-running development process cannot grow without limit.
 */
export class DevOutbox implements MailSender {
  readonly capacity: number;
  private readonly messages: StoredMail[] = [];
  /** Each kept message's recipient in lower case, in step with `messages` (list(to) compares these). */
  private readonly recipients: string[] = [];
  private readonly now: () => Date;
  private readonly logger: Logger | undefined;

  constructor({ capacity = 200, now = () => new Date(), logger }: DevOutboxOptions = {}) {
    if (!Number.isInteger(capacity) || capacity < 1) {
      throw new RangeError(`DevOutbox capacity must be a positive integer, got ${capacity}`);
    }
    this.capacity = capacity;
    this.now = now;
    this.logger = logger;
  }

  send(mail: OutgoingMail): Promise<{ id: string }> {
    return outboxMetrics.timed(
      'outbox',
      async () => this.keep(mail),
      () => 'refused',
    );
  }

  private keep(mail: OutgoingMail): { id: string } {
    const checked = checkMail(mail);
    const { to, subject, text, html, fromName, replyTo } = checked;
    const id = randomUUID();
    this.messages.push({
      id,
      to,
      subject,
      text,
      html,
      sentAt: this.now().toISOString(),
      ...(fromName ? { fromName } : {}),
      ...(replyTo ? { replyTo } : {}),
    });
    this.recipients.push(to.toLowerCase());
    if (this.messages.length > this.capacity) {
      this.messages.splice(0, this.messages.length - this.capacity);
      this.recipients.splice(0, this.recipients.length - this.capacity);
    }
    // As SMTP's: never the subject or bodies, which carry the code or link.
    this.logger?.info({ ...mailLogFields(checked), messageId: id }, 'mail kept in the development outbox');
    return { id };
  }

  /**
   * Newest first; copies, so callers cannot change what the outbox holds. With `to`, only the messages to that
   * address (compared case-insensitively), picked before anything is copied: a script polling for one
   * sign-in's mail does not copy the whole outbox each time.
   */
  list(to?: string): StoredMail[] {
    const wanted = to?.toLowerCase();
    const out: StoredMail[] = [];
    for (let i = this.messages.length - 1; i >= 0; i--)
      if (wanted === undefined || this.recipients[i] === wanted) out.push({ ...this.messages[i]! });
    return out;
  }

  async close(): Promise<void> {}
}
