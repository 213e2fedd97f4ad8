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

/** Whose a link is (its flow's tenant and app), remembered with it so a spent link's page shows that brand. */
export interface MobileLinkOwner {
  tenantId: string;
  appId: string;
  appName: string;
}

export type MobileLinkTake =
  | { state: 'taken'; flowId: string; linkHash: string }
  | { state: 'spent'; flowId: string; owner?: MobileLinkOwner }
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

  /** `owner` is remembered as long as the link is (the seen record: JSON since issue 37, a bare flow id before). */
  async issue(flowId: string, owner?: MobileLinkOwner): Promise<{ token: string; linkHash: string }> {
    const token = randomBytes(32).toString('base64url');
    const linkHash = mobileLinkHash(token);
    await this.kv.set(this.liveKey(linkHash), flowId, { ttlMs: this.opts.ttlMs });
    const seen = owner ? JSON.stringify({ flowId, owner }) : flowId;
    await this.kv.set(this.seenKey(linkHash), seen, { ttlMs: this.opts.memoryMs });
    return { token, linkHash };
  }

  /** Takes the link atomically: `taken` once while it is live, then `spent` (used or expired), else `unknown`. */
  async take(token: string): Promise<MobileLinkTake> {
    if (!/^[\w-]{43}$/.test(token)) return { state: 'unknown' };
    const linkHash = mobileLinkHash(token);
    const flowId = await this.kv.take(this.liveKey(linkHash));
    if (flowId) return { state: 'taken', flowId, linkHash };
    const seen = await this.kv.get(this.seenKey(linkHash));
    if (!seen) return { state: 'unknown' };
    // A flow id is a UUID; a record that starts with "{" is the JSON of a link issued with its owner.
    if (!seen.startsWith('{')) return { state: 'spent', flowId: seen };
    const kept = JSON.parse(seen) as { flowId: string; owner?: MobileLinkOwner };
    return { state: 'spent', flowId: kept.flowId, ...(kept.owner ? { owner: kept.owner } : {}) };
  }
}
