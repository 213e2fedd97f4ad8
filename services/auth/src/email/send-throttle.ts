import { createHash } from 'node:crypto';
import { type KeyValueStore, limitDecisions } from '@sesame/kv';

export interface SendLimits {
  perAddress: number;
  perIp: number;
  windowMs: number;
}

const hash = (v: string) => createHash('sha256').update(v).digest('base64url');

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
      this.kv.incr(`mail-to:${hash(email.toLowerCase())}`, windowMs),
      this.kv.incr(`mail-ip:${hash(ip)}`, windowMs),
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
}
