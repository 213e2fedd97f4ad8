import { createHash } from 'node:crypto';
import type { KeyValueStore } from '@sesame/kv';

export interface SendLimits {
  perAddress: number;
  perIp: number;
  windowMs: number;
}

const hash = (v: string) => createHash('sha256').update(v).digest('base64url');

/**
 * Limits sign-in mails (codes and links) per address and per caller IP in fixed windows, so nobody can bomb a
 * mailbox through Sesame. Each send is reserved (INCR) before it is decided: parallel requests cannot overshoot.
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
    return toAddress <= perAddress && fromIp <= perIp;
  }
}
