import type { KeyValueStore } from '@sesame/kv';
import { sha256 } from '@sesame/platform';
import { randomTokenSource } from './random-token';
import type { AccessTokenGrant } from './types';

export interface MintedToken {
  token: string;
  hash: string;
}

/** Opaque access tokens: 256 random bits, stored as `access:<sha256>` with the token's own TTL. */
export class AccessTokenStore {
  private readonly nextToken = randomTokenSource();

  constructor(private readonly kv: KeyValueStore) {}

  async mint(grant: AccessTokenGrant, ttlMs: number): Promise<MintedToken> {
    const token = this.nextToken();
    const hash = sha256(token);
    await this.kv.set(`access:${hash}`, JSON.stringify(grant), { ttlMs });
    return { token, hash };
  }

  async find(token: string): Promise<AccessTokenGrant | null> {
    const stored = await this.kv.get(`access:${sha256(token)}`);
    return stored === null ? null : (JSON.parse(stored) as AccessTokenGrant);
  }

  async revoke(hashes: string[]): Promise<void> {
    await Promise.all(hashes.map((hash) => this.kv.del(`access:${hash}`)));
  }
}
