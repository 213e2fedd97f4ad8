import type { KeyValueStore } from '@sesame/kv';
import { sha256 } from '@sesame/platform';
import { grants } from '@sesame/proto';
import { randomTokenSource } from './random-token';
import type { CodeGrant } from './types';

export interface CodeLifetimes {
  codeTtlMs: number;
  /** Longest lifetime of a token issued from a code: how long redemption records are kept. */
  tokenTtlMs: number;
}

/** A code found by its value, ready to be claimed. */
export interface FoundCode {
  hash: string;
  grant: CodeGrant;
}

/**
 * Authorization codes in the KV store, keyed by sha256 of the code:
 * - `code:<h>`          the grant, until redeemed or expired;
 * - `code-used:<h>`     set (SET NX) by the one redemption that wins; later holds the issued token hashes;
 * - `code-replayed:<h>` set by a replay, so a redemption still in flight revokes what it just issued.
 *
 * Single use is the SET NX on `code-used`, not a GETDEL of the grant: the grant stays readable until the
 * winner deletes it, so a concurrent replay always finds either the grant (and loses the SET NX) or the
 * redemption record — there is no window in which a replay looks like an unknown code. The two sides
 * write before they read (winner: token list, then replay marker; replay: marker, then token list), so at
 * least one of them sees the other and the issued tokens are revoked either way.
 */
export class CodeStore {
  private readonly nextCode = randomTokenSource();

  constructor(
    private readonly kv: KeyValueStore,
    private readonly lifetimes: CodeLifetimes,
  ) {}

  async issue(grant: CodeGrant): Promise<string> {
    const code = this.nextCode();
    await this.kv.set(`code:${sha256(code)}`, serialize(grant), { ttlMs: this.lifetimes.codeTtlMs });
    return code;
  }

  async find(code: string): Promise<FoundCode | null> {
    const hash = sha256(code);
    const stored = await this.kv.get(`code:${hash}`);
    return stored === null ? null : { hash, grant: deserialize(stored) };
  }

  /** True for exactly one caller per code: the redemption that may issue tokens. */
  async claim(hash: string): Promise<boolean> {
    const won = await this.kv.set(`code-used:${hash}`, '[]', {
      ttlMs: this.recordTtlMs(),
      onlyIfAbsent: true,
    });
    if (won) await this.kv.del(`code:${hash}`);
    return won;
  }

  /** Records the tokens issued from a code; true when a replay was seen meanwhile (the caller revokes them). */
  async recordIssued(hash: string, tokenHashes: string[]): Promise<boolean> {
    await this.kv.replace(`code-used:${hash}`, JSON.stringify(tokenHashes));
    return (await this.kv.get(`code-replayed:${hash}`)) !== null;
  }

  /**
   * Called when a code cannot be claimed. Returns null for a code never redeemed (unknown or expired), else
   * the hashes of the tokens issued from it so far, after marking the code replayed.
   */
  async registerReplay(code: string): Promise<string[] | null> {
    const hash = sha256(code);
    if ((await this.kv.get(`code-used:${hash}`)) === null) return null;
    await this.kv.set(`code-replayed:${hash}`, '1', { ttlMs: this.recordTtlMs() });
    const issued = await this.kv.get(`code-used:${hash}`);
    return issued ? (JSON.parse(issued) as string[]) : [];
  }

  private recordTtlMs() {
    return this.lifetimes.codeTtlMs + this.lifetimes.tokenTtlMs;
  }
}

function serialize(grant: CodeGrant): string {
  return JSON.stringify({ ...grant, claims: grants.AuthenticatedClaims.toJSON(grant.claims) });
}

function deserialize(stored: string): CodeGrant {
  const parsed = JSON.parse(stored) as CodeGrant & { claims: unknown };
  return { ...parsed, claims: grants.AuthenticatedClaims.fromJSON(parsed.claims) };
}
