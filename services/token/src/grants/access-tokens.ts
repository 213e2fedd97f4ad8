import type { KeyValueStore } from '@sesame/kv';
import { sha256 } from '@sesame/platform';
import { randomTokenSource } from './random-token';
import type { AccessTokenGrant } from './types';

export interface MintedToken {
  token: string;
  /** What `revoke` takes: the token's key without `access:` (a refresh family keeps it as accessTokenHash). */
  hash: string;
}

/** Width of a token's time prefix: milliseconds since the epoch in base 36 (9 digits last until year 5188). */
const TIME_PREFIX = 9;
const RANDOM_PART = 43;
const TIME_PREFIX_CHARS = /^[0-9a-z]{9}$/;

/**
 * Opaque access tokens: 256 random bits, stored under the sha256 of the whole token with the token's own TTL.
 *
 * On a store that prefers time-ordered keys (the embedded engine, `prefersTimeOrderedKeys`) a token starts
 * with the time it was minted (9 base-36 characters, milliseconds) and its key is `access:<time>:<sha256>`:
 * consecutive tokens' rows land on the same B-tree page instead of each dirtying a random one, which was
 * nearly all of a client_credentials grant's commit cost on that engine. The prefix carries no secret (the
 * 256 random bits follow it) and says only when the token was issued, which `iat` on introspection says too.
 * Elsewhere (Redis, memory) tokens stay 43 random characters keyed `access:<sha256>`; either store reads
 * both forms, so a token minted before the switch keeps working.
 */
export class AccessTokenStore {
  private readonly nextToken = randomTokenSource();
  private readonly timeOrdered: boolean;

  constructor(
    private readonly kv: KeyValueStore,
    private readonly now: () => number = Date.now,
  ) {
    this.timeOrdered = kv.prefersTimeOrderedKeys === true;
  }

  async mint(grant: AccessTokenGrant, ttlMs: number): Promise<MintedToken> {
    const random = this.nextToken();
    const token = this.timeOrdered ? `${timePrefix(this.now())}${random}` : random;
    const hash = keyOf(token);
    await this.kv.set(`access:${hash}`, JSON.stringify(grant), { ttlMs });
    return { token, hash };
  }

  async find(token: string): Promise<AccessTokenGrant | null> {
    const stored = await this.kv.get(`access:${keyOf(token)}`);
    return stored === null ? null : (JSON.parse(stored) as AccessTokenGrant);
  }

  async revoke(hashes: string[]): Promise<void> {
    await Promise.all(hashes.map((hash) => this.kv.del(`access:${hash}`)));
  }
}

function timePrefix(ms: number): string {
  return ms.toString(36).padStart(TIME_PREFIX, '0');
}

/** A token's key after `access:`: `<time>:<sha256>` for a time-prefixed token, else `<sha256>`. */
function keyOf(token: string): string {
  if (token.length === TIME_PREFIX + RANDOM_PART) {
    const prefix = token.slice(0, TIME_PREFIX);
    if (TIME_PREFIX_CHARS.test(prefix)) return `${prefix}:${sha256(token)}`;
  }
  return sha256(token);
}
