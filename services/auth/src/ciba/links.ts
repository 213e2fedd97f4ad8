import type { KeyValueStore } from '@sesame/kv';
import { HashedLinks, newLinkToken } from '../hashed-links';

/**
 * The links of CIBA requests (`{auth_url}/ciba/<token>`): 256 random bits, kept only as an HMAC under the
 * server's code key, bound to one flow, single use, and living exactly as long as the request (spec 8).
 * Opening looks (so a preview fetch spends nothing); the Continue button takes the link.
 */
export class CibaLinks {
  private readonly links: HashedLinks;

  constructor(kv: KeyValueStore, hashKey: string) {
    this.links = new HashedLinks(kv, hashKey, 'ciba-link');
  }

  /** A fresh token (not yet stored): the link is stored with its flow once the request exists. */
  static newToken(): string {
    return newLinkToken();
  }

  async store(token: string, flowId: string, ttlMs: number): Promise<void> {
    await this.links.put(token, flowId, ttlMs);
  }

  /** The flow of a live link, without spending it. */
  lookup(token: string): Promise<string | undefined> {
    return this.links.peek(token);
  }

  /** Takes the link atomically: its flow id once, then undefined. */
  consume(token: string): Promise<string | undefined> {
    return this.links.take(token);
  }

  async revoke(token: string): Promise<void> {
    await this.links.delete(token);
  }
}
