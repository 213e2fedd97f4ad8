import { type DeliveryOutcome, deliveryMetrics } from '@sesame/platform';
import nodemailer, { type Transporter } from 'nodemailer';
import type SMTPPool from 'nodemailer/lib/smtp-pool';
import type { Logger } from 'pino';
import {
  InvalidMailError,
  MailDeliveryError,
  type MailSender,
  type OutgoingMail,
  checkMail,
  domainOf,
  mailLogFields,
} from './port';

export interface SmtpMailSenderOptions {
  /** smtp://[user:pass@]host[:port] (STARTTLS when offered) or smtps:// (TLS from the start). */
  url: string;
  /** The From header, e.g. `Sesame <no-reply@example.com>`. */
  from: string;
  logger: Logger;
}

/** Turns the URL into explicit transport options, so no other part of the URL changes behaviour silently. */
export function smtpTransportOptions(url: string): SMTPPool.Options {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // never echo the value: it may carry a password
    throw new TypeError('SMTP URL is not a valid URL');
  }
  if (parsed.protocol !== 'smtp:' && parsed.protocol !== 'smtps:') {
    throw new TypeError(`SMTP URL must start with smtp:// or smtps://, not ${parsed.protocol}//`);
  }
  if (!parsed.hostname) throw new TypeError('SMTP URL has no host');
  const secure = parsed.protocol === 'smtps:';
  const user = decodeURIComponent(parsed.username);
  return {
    pool: true,
    host: parsed.hostname.replace(/^\[|\]$/g, ''),
    port: parsed.port ? Number(parsed.port) : secure ? 465 : 587,
    secure,
    auth: user ? { user, pass: decodeURIComponent(parsed.password) } : undefined,
    maxConnections: 5,
    // nodemailer waits minutes by default; a sign-in page should learn of a dead relay in seconds
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
    // nodemailer's own logger would print SMTP conversations, which contain the message
    logger: false,
    debug: false,
  };
}

interface TransportError {
  code?: unknown;
  responseCode?: unknown;
}

const mailMetrics = deliveryMetrics('mail');

/**
 * refused: the relay answered with a permanent rejection (5xx), or the message was unusable; it will never
 * be delivered as is. failed: anything else (connection, timeout, a temporary 4xx): a retry may succeed.
 */
export function refusedOrFailed(err: unknown): DeliveryOutcome {
  if (err instanceof InvalidMailError) return 'refused';
  const code = err instanceof MailDeliveryError ? err.responseCode : undefined;
  return code !== undefined && code >= 500 && code < 600 ? 'refused' : 'failed';
}

/** Sends through an SMTP relay with a pool of connections (nodemailer). */
export class SmtpMailSender implements MailSender {
  private readonly transport: Transporter<SMTPPool.SentMessageInfo>;
  private readonly from: string;
  private readonly logger: Logger;

  constructor({ url, from, logger }: SmtpMailSenderOptions) {
    this.transport = nodemailer.createTransport(smtpTransportOptions(url));
    this.from = from;
    this.logger = logger;
  }

  send(mail: OutgoingMail): Promise<{ id: string }> {
    return mailMetrics.timed('smtp', () => this.deliver(mail), refusedOrFailed);
  }

  private async deliver(mail: OutgoingMail): Promise<{ id: string }> {
    const checked = checkMail(mail);
    const { to, subject, text, html, fromName, replyTo } = checked;
    const toDomain = domainOf(to);
    const logFields = mailLogFields(checked);
    // The configured address always sends (SPF, DKIM); a tenant's branding only names the sender.
    const address = /<([^>]+)>\s*$/.exec(this.from)?.[1] ?? this.from;
    const from = fromName ? { name: fromName, address } : this.from;
    try {
      const info = await this.transport.sendMail({
        from,
        to,
        subject,
        text,
        html,
        ...(replyTo ? { replyTo } : {}),
      });
      this.logger.info({ ...logFields, messageId: info.messageId }, 'mail sent');
      return { id: info.messageId };
    } catch (err) {
      // The transport's error quotes the SMTP dialogue (AUTH lines, addresses, and a relay's refusal may echo
      // the subject or body, so the code): keep its codes only, and never attach it as the cause.
      const { code, responseCode } = (err ?? {}) as TransportError;
      const safeCode = typeof code === 'string' ? code : undefined;
      const safeResponse = typeof responseCode === 'number' ? responseCode : undefined;
      this.logger.warn({ ...logFields, errorCode: safeCode, responseCode: safeResponse }, 'mail not sent');
      const reason = [safeCode, safeResponse].filter((v) => v !== undefined).join(' ') || 'unknown error';
      throw new MailDeliveryError(`mail delivery to ${toDomain} failed (${reason})`, safeCode, safeResponse);
    }
  }

  async close(): Promise<void> {
    this.transport.close();
  }
}
