import type { KeyValueStore } from '@sesame/kv';
import { type Logger, OAuthError, sha256 } from '@sesame/platform';

export interface AuthFailureLimits {
  /** Failed client authentications allowed per (client_id, caller IP) in a window; 0 turns the limit off. */
  perClientAndIp: number;
  /** Failed client authentications allowed per caller IP, whatever the client_id; 0 turns the limit off. */
  perIp: number;
  windowMs: number;
}

/**
 * Slows down secret guessing at /token. Failures are counted in Redis (so every token pod sees them) in fixed
 * windows, per (client_id, IP) and per IP: someone who knows a public client_id cannot lock the real client
 * out from elsewhere, and one address cannot try many client_ids either. Once a count reaches its limit,
 * that caller's authentications are refused with 429 and Retry-After, before the Directory is asked, until
 * the window ends. Keys hold hashes, never raw client ids.
 */
export class AuthFailureThrottle {
  constructor(
    private readonly kv: KeyValueStore,
    private readonly limits: AuthFailureLimits,
    private readonly logger?: Logger,
  ) {}

  private keys(clientId: string, ip: string) {
    return {
      pair: `authfail:pair:${sha256(`${clientId}\n${ip}`)}`,
      ip: `authfail:ip:${sha256(ip)}`,
    };
  }

  /** Throws 429 when this caller already used up its failures. */
  async assertAllowed(clientId: string, ip: string): Promise<void> {
    const { perClientAndIp, perIp } = this.limits;
    if (!perClientAndIp && !perIp) return;
    const keys = this.keys(clientId, ip);
    const [pair, byIp] = await Promise.all([this.kv.get(keys.pair), this.kv.get(keys.ip)]);
    const blocked =
      (perClientAndIp > 0 && Number(pair ?? 0) >= perClientAndIp && keys.pair) ||
      (perIp > 0 && Number(byIp ?? 0) >= perIp && keys.ip);
    if (!blocked) return;
    const remaining = (await this.kv.ttlMs(blocked)) ?? this.limits.windowMs;
    const err = new OAuthError(
      'temporarily_unavailable',
      'too many failed client authentications from this address; retry later',
      429,
    );
    err.headers = { 'Retry-After': String(Math.max(1, Math.ceil(remaining / 1000))) };
    throw err;
  }

  /** Counts one failure; logs once per window when a caller reaches a limit (each 429 after that is a metric). */
  async recordFailure(clientId: string, ip: string): Promise<void> {
    const { perClientAndIp, perIp, windowMs } = this.limits;
    const keys = this.keys(clientId, ip);
    const [pair, byIp] = await Promise.all([
      perClientAndIp > 0 ? this.kv.incr(keys.pair, windowMs) : undefined,
      perIp > 0 ? this.kv.incr(keys.ip, windowMs) : undefined,
    ]);
    if (pair === perClientAndIp || byIp === perIp) {
      this.logger?.warn(
        { clientId, clientIp: ip, limit: pair === perClientAndIp ? 'per-client-and-ip' : 'per-ip', windowMs },
        'failed client authentications reached the limit; this caller gets 429 until the window ends',
      );
    }
  }
}
