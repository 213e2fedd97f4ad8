import { createHmac, randomBytes } from 'node:crypto';
import type { KeyValueStore } from '@sesame/kv';

/** The shape of every link token: 256 random bits, base64url. Anything else is never looked up. */
const TOKEN = /^[\w-]{43}$/;

/** Whose a link is: its tenant and app, for the page of a link no longer valid (it shows their brand). */
export interface LinkOwner {
  tenantId: string;
  appId: string;
  appName: string;
}

/** How long after it can no longer be used a link still names its owner (links from before issue 37 do not). */
export const LINK_OWNER_MEMORY_MS = 24 * 60 * 60_000;

/** A fresh link token: 256 bits from the CSPRNG, base64url. */
export const newLinkToken = (): string => randomBytes(32).toString('base64url');

/**
 * The single-use links of one kind (`ciba-link`, `registration-link`, `enroll-link`): each token is kept in
 * the KV store only as an HMAC under the server's code key (a copy of the store gives no link away), at
 * `<kind>:<hmac of "<kind>:<token>">`, with what it stands for (a flow id, a JSON record).
 */
export class HashedLinks {
  constructor(
    private readonly kv: KeyValueStore,
    private readonly hashKey: string,
    private readonly kind: string,
  ) {}

  private key(token: string): string {
    const hash = createHmac('sha256', this.hashKey).update(`${this.kind}:${token}`).digest('base64url');
    return `${this.kind}:${hash}`;
  }

  /** Stores a new token's value for `ttlMs` (never over a live one). */
  async put(token: string, value: string, ttlMs: number): Promise<void> {
    await this.kv.set(this.key(token), value, { ttlMs, onlyIfAbsent: true });
  }

  /** The value of a live link, without spending it. */
  async peek(token: string): Promise<string | undefined> {
    if (!TOKEN.test(token)) return undefined;
    return (await this.kv.get(this.key(token))) ?? undefined;
  }

  /** Takes the link atomically: its value once, then undefined. */
  async take(token: string): Promise<string | undefined> {
    if (!TOKEN.test(token)) return undefined;
    return (await this.kv.take(this.key(token))) ?? undefined;
  }

  async delete(token: string): Promise<void> {
    if (TOKEN.test(token)) await this.kv.del(this.key(token));
  }
}
