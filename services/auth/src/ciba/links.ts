import { createHmac, randomBytes } from 'node:crypto';
import type { KeyValueStore } from '@sesame/kv';

const TOKEN = /^[\w-]{43}$/;
const liveKey = (h: string) => `ciba-link:${h}`;

/**
 * The links of CIBA requests (`{auth_url}/ciba/<token>`): 256 random bits, kept only as an HMAC under the
 * server's code key, bound to one flow, single use, and living exactly as long as the request (spec 8).
 * Opening looks (so a preview fetch spends nothing); the Continue button takes the link.
 */
export class CibaLinks {
  constructor(
    private readonly kv: KeyValueStore,
    private readonly hashKey: string,
  ) {}

  private hash(token: string): string {
    return createHmac('sha256', this.hashKey).update(`ciba-link:${token}`).digest('base64url');
  }

  /** A fresh token (not yet stored): the link is stored with its flow once the request exists. */
  static newToken(): string {
    return randomBytes(32).toString('base64url');
  }

  async store(token: string, flowId: string, ttlMs: number): Promise<void> {
    await this.kv.set(liveKey(this.hash(token)), flowId, { ttlMs, onlyIfAbsent: true });
  }

  /** The flow of a live link, without spending it. */
  async lookup(token: string): Promise<string | undefined> {
    if (!TOKEN.test(token)) return undefined;
    return (await this.kv.get(liveKey(this.hash(token)))) ?? undefined;
  }

  /** Takes the link atomically: its flow id once, then undefined. */
  async consume(token: string): Promise<string | undefined> {
    if (!TOKEN.test(token)) return undefined;
    return (await this.kv.take(liveKey(this.hash(token)))) ?? undefined;
  }

  async revoke(token: string): Promise<void> {
    await this.kv.del(liveKey(this.hash(token)));
  }
}
