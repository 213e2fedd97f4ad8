import { createHash } from 'node:crypto';
import { type KeyValueStore, limitDecisions } from '@sesame/kv';

export interface SendLimits {
  perAddress: number;
  perIp: number;
  windowMs: number;
}

const hash = (v: string) => createHash('sha256').update(v).digest('base64url');
const addressKey = (email: string) => `mail-to:${hash(email.toLowerCase())}`;
const ipKey = (ip: string) => `mail-ip:${hash(ip)}`;

/**
 * Limits sign-in mails (codes and links) per address and per caller IP in fixed windows, so nobody can bomb a
 * mailbox through Sesame. Each send is reserved (INCR) before it is decided: parallel requests cannot overshoot.
 * Kept in fixed windows where a refused attempt counts too (the sign-in pages' behaviour); the other message
 * limits are @sesame/kv's SendLimiter, and both count in sesame_message_limit_decisions_total.
 */
export class SendThrottle {
  constructor(
    private readonly kv: KeyValueStore,
    private readonly limits: SendLimits,
  ) {}

  /** Reserves one send; false when either limit is already reached (nothing is sent then). */
  async reserve(email: string, ip: string): Promise<boolean> {
    const { perAddress, perIp, windowMs } = this.limits;
    const [toAddress, fromIp] = await Promise.all([
      this.kv.incr(addressKey(email), windowMs),
      this.kv.incr(ipKey(ip), windowMs),
    ]);
    const refusedBy = toAddress > perAddress ? 'destination' : fromIp > perIp ? 'ip' : undefined;
    // The same metric as every other message limit (SendLimiter): purpose signin_mail.
    limitDecisions().inc({
      purpose: 'signin_mail',
      outcome: refusedBy ? 'refused' : 'allowed',
      limit: refusedBy ?? 'none',
    });
    return refusedBy === undefined;
  }

  /**
   * How long until a send to `email` from `ip` would be allowed (0: now): the rest of the window of every limit
   * already used up. Reads only; the code page shows it as its resend timer.
   */
  async waitMs(email: string, ip: string): Promise<number> {
    const { perAddress, perIp } = this.limits;
    const keys = [addressKey(email), ipKey(ip)];
    const [toAddress, fromIp] = await this.kv.getMany(keys);
    const full = [Number(toAddress ?? 0) >= perAddress, Number(fromIp ?? 0) >= perIp];
    const waits = await Promise.all(keys.map((key, i) => (full[i] ? this.kv.ttlMs(key) : 0)));
    return Math.max(0, ...waits.map((w) => w ?? 0));
  }
}
