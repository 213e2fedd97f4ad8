import type { KeyValueStore } from '@sesame/kv';
import { newSecret, sha256 } from '@sesame/platform';
import { grants } from '@sesame/proto';
import type { BackchannelOutcome, BackchannelRequest, BackchannelStatus } from './types';

/** Everything a poll needs to decide its answer, read in one round of parallel gets. */
export interface BackchannelState {
  request: BackchannelRequest;
  status: BackchannelStatus;
  outcome: BackchannelOutcome | null;
}

/**
 * CIBA requests in the KV store, keyed by sha256 of the auth_req_id. The request record is written once;
 * progress lives in separate keys so no transition is a read-modify-write:
 * - `ciba:<h>`         the request (TTL: its lifetime plus the expired_token grace);
 * - `ciba-opened:<h>`  present once the person opened the link;
 * - `ciba-outcome:<h>` completed (with the claim set) or denied; SET NX, so the first decision wins;
 * - `ciba-poll:<h>`    the poll gate: SET NX with the interval as TTL; a poll that cannot set it is too fast.
 */
export class BackchannelRequests {
  constructor(
    private readonly kv: KeyValueStore,
    private readonly expiredGraceMs: number,
  ) {}

  async start(request: BackchannelRequest, now: number): Promise<string> {
    const authReqId = newSecret();
    await this.kv.set(`ciba:${sha256(authReqId)}`, JSON.stringify(request), {
      ttlMs: this.ttlMs(request, now),
    });
    return authReqId;
  }

  async find(authReqId: string): Promise<BackchannelRequest | null> {
    const stored = await this.kv.get(`ciba:${sha256(authReqId)}`);
    return stored === null ? null : (JSON.parse(stored) as BackchannelRequest);
  }

  async state(authReqId: string): Promise<BackchannelState | null> {
    const hash = sha256(authReqId);
    // One round trip: every waiting RP polls this each second.
    const [request, opened, outcome] = await this.kv.getMany([
      `ciba:${hash}`,
      `ciba-opened:${hash}`,
      `ciba-outcome:${hash}`,
    ]);
    if (!request) return null;
    return {
      request: JSON.parse(request) as BackchannelRequest,
      status: opened ? 'link_opened' : 'link_sent',
      outcome: outcome ? parseOutcome(outcome) : null,
    };
  }

  async markOpened(authReqId: string, request: BackchannelRequest, now: number): Promise<void> {
    await this.kv.set(`ciba-opened:${sha256(authReqId)}`, '1', { ttlMs: this.ttlMs(request, now) });
  }

  /** Records the decision; false when one was already recorded (the first decision stands). */
  settle(
    authReqId: string,
    request: BackchannelRequest,
    outcome: BackchannelOutcome,
    now: number,
  ): Promise<boolean> {
    return this.kv.set(`ciba-outcome:${sha256(authReqId)}`, serializeOutcome(outcome), {
      ttlMs: this.ttlMs(request, now),
      onlyIfAbsent: true,
    });
  }

  /** True when the caller may poll now; false when the previous poll was less than the interval ago. */
  passPollGate(authReqId: string, intervalS: number): Promise<boolean> {
    return this.kv.set(`ciba-poll:${sha256(authReqId)}`, '1', {
      ttlMs: intervalS * 1000,
      onlyIfAbsent: true,
    });
  }

  /** Takes the completed outcome (atomically: one poll gets the tokens) and ends the request. */
  async redeem(authReqId: string): Promise<BackchannelOutcome | null> {
    const hash = sha256(authReqId);
    const outcome = await this.kv.take(`ciba-outcome:${hash}`);
    if (outcome === null) return null;
    await Promise.all([this.kv.del(`ciba:${hash}`), this.kv.del(`ciba-opened:${hash}`)]);
    return parseOutcome(outcome);
  }

  private ttlMs(request: BackchannelRequest, now: number): number {
    return Math.max(1, request.expiresAt - now + this.expiredGraceMs);
  }
}

function serializeOutcome(outcome: BackchannelOutcome): string {
  return JSON.stringify(
    outcome.kind === 'completed'
      ? { ...outcome, claims: grants.AuthenticatedClaims.toJSON(outcome.claims) }
      : outcome,
  );
}

function parseOutcome(stored: string): BackchannelOutcome {
  const parsed = JSON.parse(stored) as
    | { kind: 'completed'; claims: unknown; login?: grants.LoginRef }
    | { kind: 'denied'; reason: string };
  return parsed.kind === 'completed'
    ? { ...parsed, claims: grants.AuthenticatedClaims.fromJSON(parsed.claims) }
    : parsed;
}
