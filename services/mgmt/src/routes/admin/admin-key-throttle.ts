import type { KeyValueStore } from '@sesame/kv';
import { MgmtError, sha256 } from '@sesame/platform';

export interface AdminKeyLimits {
  /** Failed admin-key attempts allowed per caller IP in a window; 0 turns the limit off. */
  perIp: number;
  windowMs: number;
}

/**
 * Slows down admin-key guessing the way /token slows down client-secret guessing: failures are counted per
 * caller IP in fixed windows in the KV store (Redis, so every mgmt pod sees them); once the count reaches the
 * limit that IP gets 429 with Retry-After, even with the right key, until the window ends. Keys hold hashes.
 */
export class AdminKeyThrottle {
  constructor(
    private readonly kv: KeyValueStore,
    private readonly limits: AdminKeyLimits,
  ) {}

  private key = (ip: string) => `adminkeyfail:${sha256(ip)}`;

  async assertAllowed(ip: string): Promise<void> {
    if (!this.limits.perIp) return;
    const key = this.key(ip);
    if (Number((await this.kv.get(key)) ?? 0) < this.limits.perIp) return;
    const remaining = (await this.kv.ttlMs(key)) ?? this.limits.windowMs;
    const err = new MgmtError(
      429,
      'temporarily_unavailable',
      'too many failed admin-key attempts from this address; retry later',
    );
    err.headers['Retry-After'] = String(Math.max(1, Math.ceil(remaining / 1000)));
    throw err;
  }

  async recordFailure(ip: string): Promise<void> {
    if (this.limits.perIp) await this.kv.incr(this.key(ip), this.limits.windowMs);
  }
}
