import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { KeyValueStore } from '@sesame/kv';

export interface MobileLinkOptions {
  /** How long the phone has to open the link (spec 8: 30 seconds). */
  ttlMs: number;
  /** How long an opened or expired link is still recognised, to say so on a clear page. */
  memoryMs: number;
  /** Keyspace of the links (default `mobile-link`): enrollment QRs keep their own, so no path takes another's. */
  prefix?: string;
}

export type MobileLinkTake =
  | { state: 'taken'; flowId: string; linkHash: string }
  | { state: 'spent'; flowId: string }
  | { state: 'unknown' };

/** sha256 of the link's token: what Redis and the desktop flow keep, never the token itself. */
export const mobileLinkHash = (token: string) => createHash('sha256').update(token).digest('base64url');

/** Does the link's hash name the QR the desktop flow shows now? Constant time: the hash is the secret's stand-in. */
export function sameLink(expected: string | undefined, actual: string): boolean {
  if (!expected) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(actual);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The one-time links of desktop-to-mobile sign-in (the QR code): 256 random bits, kept only as a hash, bound
 * to the desktop flow that showed them, good for `ttlMs` and taken once (the phone's first GET).
 */
export class MobileLinks {
  constructor(
    private readonly kv: KeyValueStore,
    private readonly opts: MobileLinkOptions,
  ) {}

  private liveKey = (h: string) => `${this.opts.prefix ?? 'mobile-link'}:${h}`;
  private seenKey = (h: string) => `${this.opts.prefix ?? 'mobile-link'}-seen:${h}`;

  async issue(flowId: string): Promise<{ token: string; linkHash: string }> {
    const token = randomBytes(32).toString('base64url');
    const linkHash = mobileLinkHash(token);
    await this.kv.set(this.liveKey(linkHash), flowId, { ttlMs: this.opts.ttlMs });
    await this.kv.set(this.seenKey(linkHash), flowId, { ttlMs: this.opts.memoryMs });
    return { token, linkHash };
  }

  /** Takes the link atomically: `taken` once while it is live, then `spent` (used or expired), else `unknown`. */
  async take(token: string): Promise<MobileLinkTake> {
    if (!/^[\w-]{43}$/.test(token)) return { state: 'unknown' };
    const linkHash = mobileLinkHash(token);
    const flowId = await this.kv.take(this.liveKey(linkHash));
    if (flowId) return { state: 'taken', flowId, linkHash };
    const seen = await this.kv.get(this.seenKey(linkHash));
    return seen ? { state: 'spent', flowId: seen } : { state: 'unknown' };
  }
}
