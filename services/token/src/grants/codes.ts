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

/** What a presented code is checked against before it is claimed, and kept for checking its replays. */
export type CodeBinding = Pick<CodeGrant, 'clientId' | 'redirectUri' | 'codeChallenge'>;

/** A code that was redeemed: what it was bound to, and the hashes of the tokens issued from it so far. */
export interface RedeemedCode {
  hash: string;
  binding: CodeBinding;
  tokens: string[];
}

/**
 * Authorization codes in the KV store, keyed by sha256 of the code:
 * - `code:<h>`          the grant, until redeemed or expired;
 * - `code-used:<h>`     set (SET NX) by the one redemption that wins: the code's binding (client,
 *                       redirect_uri, PKCE challenge), later with the issued token hashes;
 * - `code-replayed:<h>` set by a replay, so a redemption still in flight revokes what it just issued.
 *
 * The caller checks client, redirect_uri and PKCE before it claims, so a request that fails them uses up
 * nothing; a replay is checked against the binding kept in `code-used` before it revokes anything, so only
 * the rightful client can revoke its tokens with a leaked code.
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
  async claim(found: FoundCode): Promise<boolean> {
    const won = await this.kv.set(`code-used:${found.hash}`, usedRecord(found.grant, []), {
      ttlMs: this.recordTtlMs(),
      onlyIfAbsent: true,
    });
    if (won) await this.kv.del(`code:${found.hash}`);
    return won;
  }

  /** Records the tokens issued from a code; true when a replay was seen meanwhile (the caller revokes them). */
  async recordIssued(found: FoundCode, tokenHashes: string[]): Promise<boolean> {
    await this.kv.replace(`code-used:${found.hash}`, usedRecord(found.grant, tokenHashes));
    return (await this.kv.get(`code-replayed:${found.hash}`)) !== null;
  }

  /** The redemption record of a code that cannot be claimed; null for a code never redeemed (unknown, expired). */
  async findRedeemed(code: string): Promise<RedeemedCode | null> {
    const hash = sha256(code);
    const stored = await this.kv.get(`code-used:${hash}`);
    const record = stored === null ? null : (JSON.parse(stored) as Omit<RedeemedCode, 'hash'> | string[]);
    // A bare list is a record written before codes kept their binding: nothing to check a replay against,
    // so it is refused like an unknown code (such records expire with their tokens).
    return record === null || Array.isArray(record) ? null : { hash, ...record };
  }

  /**
   * Marks a redeemed code replayed (by its rightful client: the caller checked the binding) and returns the
   * hashes of the tokens issued from it so far, including any recorded while the marker was being written.
   */
  async registerReplay(redeemed: RedeemedCode): Promise<string[]> {
    await this.kv.set(`code-replayed:${redeemed.hash}`, '1', { ttlMs: this.recordTtlMs() });
    const issued = await this.kv.get(`code-used:${redeemed.hash}`);
    return issued ? (JSON.parse(issued) as Omit<RedeemedCode, 'hash'>).tokens : redeemed.tokens;
  }

  private recordTtlMs() {
    return this.lifetimes.codeTtlMs + this.lifetimes.tokenTtlMs;
  }
}

function usedRecord(grant: CodeGrant, tokens: string[]): string {
  const binding: CodeBinding = {
    clientId: grant.clientId,
    redirectUri: grant.redirectUri,
    codeChallenge: grant.codeChallenge,
  };
  return JSON.stringify({ binding, tokens });
}

function serialize(grant: CodeGrant): string {
  return JSON.stringify({ ...grant, claims: grants.AuthenticatedClaims.toJSON(grant.claims) });
}

function deserialize(stored: string): CodeGrant {
  const parsed = JSON.parse(stored) as CodeGrant & { claims: unknown };
  return { ...parsed, claims: grants.AuthenticatedClaims.fromJSON(parsed.claims) };
}
