import { randomUUID } from 'node:crypto';
import { type DeliveryOutcome, deliveryMetrics } from '@sesame/platform';
import type { Logger } from 'pino';
import {
  InvalidSmsError,
  type OutgoingSms,
  SmsDeliveryError,
  type SmsSender,
  checkSms,
  maskNumber,
} from './port';

const smsMetrics = deliveryMetrics('sms');

/** refused: the provider rejected this message, or it was unusable; failed: the provider was unavailable. */
export function smsRefusedOrFailed(err: unknown): DeliveryOutcome {
  if (err instanceof InvalidSmsError) return 'refused';
  return err instanceof SmsDeliveryError && err.kind === 'rejected' ? 'refused' : 'failed';
}

export interface HttpSmsSenderOptions {
  /** The provider's Messages resource, e.g. https://api.example.com/2010-04-01/Accounts/<id>/Messages.json. */
  url: string;
  from: string;
  /** Basic-auth user and password (account id and token); both or neither. */
  user?: string;
  password?: string;
  timeoutMs?: number;
  logger?: Logger;
  fetch?: typeof fetch;
}

/**
 * The widely used Messages REST shape (ARCHITECTURE §7): a form POST with To, From and Body, HTTP Basic
 * authentication, a JSON answer whose `sid` (or `id`) names the message. A 4xx answer refuses this message
 * (rejected); a 5xx, a timeout or no connection is an outage (unavailable).
 */
export class HttpSmsSender implements SmsSender {
  private readonly fetch: typeof fetch;
  constructor(private readonly opts: HttpSmsSenderOptions) {
    this.fetch = opts.fetch ?? fetch;
  }

  send(sms: OutgoingSms): Promise<{ id: string }> {
    return smsMetrics.timed('http', () => this.deliver(sms), smsRefusedOrFailed);
  }

  private async deliver(sms: OutgoingSms): Promise<{ id: string }> {
    const { to, text } = checkSms(sms);
    const headers: Record<string, string> = {
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json',
    };
    if (this.opts.user !== undefined) {
      const basic = Buffer.from(`${this.opts.user}:${this.opts.password ?? ''}`).toString('base64');
      headers.authorization = `Basic ${basic}`;
    }
    let res: Response;
    try {
      res = await this.fetch(this.opts.url, {
        method: 'POST',
        headers,
        body: new URLSearchParams({ To: to, From: this.opts.from, Body: text }).toString(),
        signal: AbortSignal.timeout(this.opts.timeoutMs ?? 10_000),
      });
    } catch (err) {
      const code = (err as { cause?: { code?: string }; name?: string }).cause?.code ?? (err as Error).name;
      throw new SmsDeliveryError(`SMS provider unreachable (${code})`, 'unavailable');
    }
    const body = (await res.json().catch(() => ({}))) as { sid?: unknown; id?: unknown };
    if (!res.ok) {
      const kind = res.status >= 400 && res.status < 500 && res.status !== 429 ? 'rejected' : 'unavailable';
      throw new SmsDeliveryError(`SMS provider answered ${res.status}`, kind, res.status);
    }
    const id = typeof body.sid === 'string' ? body.sid : typeof body.id === 'string' ? body.id : randomUUID();
    this.opts.logger?.info({ to: maskNumber(to), messageId: id }, 'sms handed to the provider');
    return { id };
  }

  async close(): Promise<void> {}
}
