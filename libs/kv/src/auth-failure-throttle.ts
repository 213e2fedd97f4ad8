import { type Logger, OAuthError, sha256 } from '@sesame/platform';
import type { KeyValueStore } from './port';

export interface AuthFailureLimits {
  /** Failed client authentications allowed per (client_id, caller IP) in a window; 0 turns the limit off. */
  perClientAndIp: number;
  /** Failed client authentications allowed per caller IP, whatever the client_id; 0 turns the limit off. */
  perIp: number;
  windowMs: number;
}

/** A slot taken before the Directory is asked: given back on success, kept as the failure otherwise. */
export interface AuthAttempt {
  succeeded(): Promise<void>;
  failed(): Promise<void>;
}

interface Counter {
  key: string;
  limit: number;
  name: 'per-client-and-ip' | 'per-ip';
}

/**
 * Slows down secret guessing at /token and /authorize_ciba (each service counts in its own namespace). Failures are counted in Redis (so every token pod sees them) in fixed
 * windows, per (client_id, IP) and per IP: someone who knows a public client_id cannot lock the real client
 * out from elsewhere, and one address cannot try many client_ids either. Keys hold hashes, never raw ids.
 *
 * An attempt that will ask the Directory reserves first: it increments the counters and decides on the
 * result, so of N parallel wrong secrets at most `limit` reach the Directory (reading, then counting after
 * the answer, let every parallel request see the old count). A success gives its slot back. Once a count
 * reaches its limit the caller gets 429 with Retry-After until the window ends, even with the right secret.
 */
/** Callers whose counters are remembered (their keys cost two SHA-256 each to build); the oldest go first. */
const REMEMBERED_CALLERS = 1024;

export class AuthFailureThrottle {
  /** The counters of recent (client_id, IP) pairs: the same few callers send nearly every request. */
  private readonly recent = new Map<string, { counters: readonly Counter[]; keys: string[] }>();

  constructor(
    private readonly kv: KeyValueStore,
    private readonly limits: AuthFailureLimits,
    private readonly logger?: Logger,
  ) {}

  private counters(clientId: string, ip: string): { counters: readonly Counter[]; keys: string[] } {
    const pair = `${clientId}\n${ip}`;
    const known = this.recent.get(pair);
    if (known) return known;
    const counters = this.countersOf(clientId, ip);
    const entry = { counters, keys: counters.map((c) => c.key) };
    if (this.recent.size >= REMEMBERED_CALLERS) this.recent.delete(this.recent.keys().next().value!);
    this.recent.set(pair, entry);
    return entry;
  }

  private countersOf(clientId: string, ip: string): readonly Counter[] {
    const { perClientAndIp, perIp } = this.limits;
    const counters: Counter[] = [];
    if (perClientAndIp > 0)
      counters.push({
        key: `authfail:pair:${sha256(`${clientId}\n${ip}`)}`,
        limit: perClientAndIp,
        name: 'per-client-and-ip',
      });
    if (perIp > 0) counters.push({ key: `authfail:ip:${sha256(ip)}`, limit: perIp, name: 'per-ip' });
    return counters;
  }

  /** Throws 429 when this caller already used up its failures (reads only: for answers that skip the Directory). */
  async assertAllowed(clientId: string, ip: string): Promise<void> {
    const { counters, keys } = this.counters(clientId, ip);
    const counts = await this.kv.getMany(keys);
    const blocked = counters.find((c, i) => Number(counts[i] ?? 0) >= c.limit);
    if (blocked) throw await this.refusal(blocked);
  }

  /** Takes a slot in each counter, or throws 429 (taking nothing) when one is already full. */
  async reserve(clientId: string, ip: string): Promise<AuthAttempt> {
    const { counters } = this.counters(clientId, ip);
    const { windowMs } = this.limits;
    const counts = await Promise.all(counters.map((c) => this.kv.incr(c.key, windowMs)));
    const release = () => Promise.all(counters.map((c) => this.kv.decr(c.key))).then(() => undefined);
    const blocked = counters.find((c, i) => counts[i]! > c.limit);
    if (blocked) {
      await release();
      throw await this.refusal(blocked);
    }
    return {
      succeeded: release,
      failed: async () => {
        const reached = counters.find((c, i) => counts[i] === c.limit);
        if (!reached) return;
        this.logger?.warn(
          { clientId, clientIp: ip, limit: reached.name, windowMs },
          'failed client authentications reached the limit; this caller gets 429 until the window ends',
        );
      },
    };
  }

  private async refusal(counter: Counter): Promise<OAuthError> {
    const remaining = (await this.kv.ttlMs(counter.key)) ?? this.limits.windowMs;
    const err = new OAuthError(
      'temporarily_unavailable',
      'too many failed client authentications from this address; retry later',
      429,
    );
    err.headers = { 'Retry-After': String(Math.max(1, Math.ceil(remaining / 1000))) };
    return err;
  }
}
