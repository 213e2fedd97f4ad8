import { createHash, randomBytes } from 'node:crypto';
import type { KeyValueStore } from '@sesame/kv';

export interface MagicLinkOptions {
  ttlMs: number;
  /** How long an expired or used link is still recognised (to say so, and to record magic_link_expired). */
  memoryMs: number;
}

export type LinkLookup =
  | { state: 'valid'; flowId: string }
  | { state: 'spent'; flowId: string; memo: string }
  | { state: 'unknown' };

const hash = (token: string) => createHash('sha256').update(token).digest('base64url');
const liveKey = (h: string) => `link:${h}`;
const seenKey = (h: string) => `link-seen:${h}`;

/**
 * Magic links: 256 random bits, stored only as a hash, single use, bound to the flow that asked for one.
 * Opening a link only looks; confirming (a POST) takes it, so mail scanners that follow links spend nothing.
 */
export class MagicLinks {
  constructor(
    private readonly kv: KeyValueStore,
    private readonly opts: MagicLinkOptions,
  ) {}

  /** `memo` is kept as long as the link is remembered (what to record about a spent link once its flow is gone). */
  async issue(flowId: string, memo = ''): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    const h = hash(token);
    await this.kv.set(liveKey(h), flowId, { ttlMs: this.opts.ttlMs });
    await this.kv.set(seenKey(h), JSON.stringify({ flowId, memo }), { ttlMs: this.opts.memoryMs });
    return token;
  }

  private static wellFormed(token: string): boolean {
    return /^[\w-]{43}$/.test(token);
  }

  async lookup(token: string): Promise<LinkLookup> {
    if (!MagicLinks.wellFormed(token)) return { state: 'unknown' };
    const h = hash(token);
    const live = await this.kv.get(liveKey(h));
    if (live) return { state: 'valid', flowId: live };
    const seen = await this.kv.get(seenKey(h));
    if (!seen) return { state: 'unknown' };
    const { flowId, memo } = JSON.parse(seen) as { flowId: string; memo: string };
    return { state: 'spent', flowId, memo };
  }

  /** Takes the link atomically: the flow id once, then undefined. */
  async consume(token: string): Promise<string | undefined> {
    if (!MagicLinks.wellFormed(token)) return undefined;
    return (await this.kv.take(liveKey(hash(token)))) ?? undefined;
  }
}
