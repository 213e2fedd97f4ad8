import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import type { KeyValueStore } from '@sesame/kv';

export interface EmailCodeOptions {
  ttlMs: number;
  /** Wrong tries after which the code is dead (a new one must be sent). */
  maxAttempts: number;
  /** Server-side key of the code hashes: a copy of Redis alone does not give the codes away. */
  hashKey: string;
}

export type CodeCheck =
  | { result: 'ok'; email: string }
  | { result: 'wrong'; attemptsLeft: number }
  | { result: 'dead' };

const codeKey = (flowId: string) => `otp:${flowId}`;
const triesKey = (flowId: string) => `otp-tries:${flowId}`;

/**
 * Email one-time codes: 6 digits from a CSPRNG, stored as an HMAC with a TTL, compared in constant time,
 * single use, dead after `maxAttempts` wrong tries. One live code per flow: a new one replaces the last.
 */
export class EmailCodes {
  constructor(
    private readonly kv: KeyValueStore,
    private readonly opts: EmailCodeOptions,
  ) {}

  private digest(flowId: string, code: string): Buffer {
    return createHmac('sha256', this.opts.hashKey).update(`${flowId}:${code}`).digest();
  }

  /** Creates the flow's code for `email` and returns it (for the email only: it is never stored). */
  async issue(flowId: string, email: string): Promise<string> {
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    const value = JSON.stringify({ h: this.digest(flowId, code).toString('base64url'), email });
    await this.kv.del(triesKey(flowId));
    await this.kv.set(codeKey(flowId), value, { ttlMs: this.opts.ttlMs });
    return code;
  }

  /**
   * Checks a typed code. The try is counted before the comparison (an atomic INCR), so parallel guesses cannot
   * exceed the limit; a right code is taken atomically, so it works once.
   */
  async check(flowId: string, typed: string): Promise<CodeCheck> {
    const raw = await this.kv.get(codeKey(flowId));
    if (!raw) return { result: 'dead' };
    const tries = await this.kv.incr(triesKey(flowId), this.opts.ttlMs);
    if (tries > this.opts.maxAttempts) {
      await this.kv.del(codeKey(flowId));
      return { result: 'dead' };
    }
    const stored = JSON.parse(raw) as { h: string; email: string };
    const expected = Buffer.from(stored.h, 'base64url');
    const given = /^\d{6}$/.test(typed) ? this.digest(flowId, typed) : Buffer.alloc(expected.length);
    const match = timingSafeEqual(expected, given) && /^\d{6}$/.test(typed);
    if (!match) {
      const attemptsLeft = this.opts.maxAttempts - tries;
      if (attemptsLeft <= 0) await this.kv.del(codeKey(flowId));
      return attemptsLeft <= 0 ? { result: 'dead' } : { result: 'wrong', attemptsLeft };
    }
    const taken = await this.kv.take(codeKey(flowId));
    return taken === raw ? { result: 'ok', email: stored.email } : { result: 'dead' };
  }

  /**
   * Why a code is dead: true when its wrong tries used up the limit (the page says "too many attempts", not
   * "expired"). The try count lives until the code's TTL ends or a new code is issued, so every later try of
   * the locked code, even the right one, is told the same.
   */
  async lockedOut(flowId: string): Promise<boolean> {
    const tries = await this.kv.get(triesKey(flowId));
    return tries !== null && Number(tries) >= this.opts.maxAttempts;
  }
}
