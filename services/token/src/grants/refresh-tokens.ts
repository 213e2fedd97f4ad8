import type { KeyValueStore } from '@sesame/kv';
import { MAX_REFRESH_ABSOLUTE_LIFETIME_S } from '@sesame/oauth';
import { sha256 } from '@sesame/platform';
import { grants } from '@sesame/proto';
import { randomTokenSource } from './random-token';
import type { RefreshFamily } from './types';

/** What a family is started with: the code grant it came from, and the app's lifetimes. */
export type NewFamily = Omit<RefreshFamily, 'id' | 'current' | 'createdAt' | 'lastUsedAt' | 'accessTokens'>;

/** A presented refresh token: its hash, the family and client it was issued in, and the family if it lives. */
export interface FoundRefresh {
  hash: string;
  familyId: string;
  clientId: string;
  family: RefreshFamily | null;
}

/** Whose grants a revocation ends (Grants.RevokeUserGrants): all of a user's, of one app, or of one device. */
export interface UserGrantsScope {
  tenantId: string;
  sub: string;
  appId?: string;
  deviceId?: string;
}

const MARKER_TTL_MS = MAX_REFRESH_ABSOLUTE_LIFETIME_S * 1000;

/**
 * Refresh tokens in the KV store, opaque (256 random bits) and keyed by sha256 (RFC 9700 4.14: rotated on
 * every use, a reuse revokes the family):
 * - `refresh:<h>`          the family and client a token was issued in; after its rotation kept for the
 *                          family's idle lifetime more (never past its absolute end), so a replayed old
 *                          token is recognised within that window and a long-lived family does not pile up
 *                          a record per rotation (older ones are just unknown: refused, revoking nothing);
 * - `refresh-used:<h>`     set (SET NX) by the one use of a token that wins, for as long as its record;
 *                          a second use finds it: a replay;
 * - `refresh-family:<id>`  the grant (client, sub, scope, claim snapshot, login), its lifetimes, the hash of
 *                          its one current token and the access tokens issued from it; deleted (atomically
 *                          read and deleted) when the family is revoked;
 * - `refresh-revoked:<tenant>:<sub>[:app:<id>|:device:<id>]`  when a user's grants were ended (user removed,
 *                          device blocked): a family started at or before that instant is dead. A marker
 *                          outlives any family (the longest absolute lifetime), and costs no index of families.
 */
export class RefreshTokenStore {
  private readonly nextToken = randomTokenSource();

  constructor(private readonly kv: KeyValueStore) {}

  /** Starts a family with its first token. */
  async start(
    grant: NewFamily,
    nowMs: number,
    accessToken?: AccessIssued,
  ): Promise<{ token: string; familyId: string }> {
    const id = this.nextToken();
    const token = this.nextToken();
    const hash = sha256(token);
    const family: RefreshFamily = {
      ...grant,
      id,
      current: hash,
      createdAt: nowMs,
      lastUsedAt: nowMs,
      accessTokens: accessToken ? [accessToken] : [],
    };
    const ttlMs = family.absoluteExpiresAt - nowMs;
    await this.kv.set(`refresh-family:${id}`, serialize(family), { ttlMs });
    await this.kv.set(`refresh:${hash}`, JSON.stringify({ familyId: id, clientId: grant.clientId }), {
      ttlMs,
    });
    return { token, familyId: id };
  }

  async find(token: string): Promise<FoundRefresh | null> {
    const hash = sha256(token);
    const stored = await this.kv.get(`refresh:${hash}`);
    if (stored === null) return null;
    const { familyId, clientId } = JSON.parse(stored) as { familyId: string; clientId: string };
    const family = await this.kv.get(`refresh-family:${familyId}`);
    return { hash, familyId, clientId, family: family === null ? null : deserialize(family) };
  }

  /** True for exactly one use of a token; false for a replay (the caller revokes the family). */
  async claim(found: FoundRefresh & { family: RefreshFamily }, nowMs: number): Promise<boolean> {
    const ttlMs = replayWindowMs(found.family, nowMs);
    return this.kv.set(`refresh-used:${found.hash}`, '1', { ttlMs, onlyIfAbsent: true });
  }

  /**
   * Finishes a rotation: the family's next token, its last use now, and the access token issued with it.
   * Null when the family was revoked meanwhile (a concurrent replay): the caller revokes what it issued.
   */
  async rotate(family: RefreshFamily, nowMs: number, accessToken: AccessIssued): Promise<string | null> {
    const token = this.nextToken();
    const hash = sha256(token);
    const ttlMs = family.absoluteExpiresAt - nowMs;
    if (ttlMs <= 0) return null;
    const record = JSON.stringify({ familyId: family.id, clientId: family.clientId });
    await this.kv.set(`refresh:${hash}`, record, { ttlMs });
    // The rotated token's record now only serves replay detection: kept for the replay window.
    await this.kv.set(`refresh:${family.current}`, record, { ttlMs: replayWindowMs(family, nowMs) });
    const next: RefreshFamily = {
      ...family,
      current: hash,
      lastUsedAt: nowMs,
      accessTokens: [...family.accessTokens.filter((t) => t.expiresAt > nowMs), accessToken],
    };
    return (await this.kv.replace(`refresh-family:${family.id}`, serialize(next))) ? token : null;
  }

  /**
   * A use without rotation (FAPI 2.0 §5.3.2.1): the family keeps its current token; its last use is now and
   * the access token issued is recorded. False when the family was revoked meanwhile (the caller revokes
   * what it issued).
   */
  async reuse(family: RefreshFamily, nowMs: number, accessToken: AccessIssued): Promise<boolean> {
    if (family.absoluteExpiresAt - nowMs <= 0) return false;
    const next: RefreshFamily = {
      ...family,
      lastUsedAt: nowMs,
      accessTokens: [...family.accessTokens.filter((t) => t.expiresAt > nowMs), accessToken],
    };
    return this.kv.replace(`refresh-family:${family.id}`, serialize(next));
  }

  /** Ends a family: its tokens stop working. Returns the hashes of the access tokens issued from it. */
  async revokeFamily(familyId: string): Promise<string[]> {
    const stored = await this.kv.take(`refresh-family:${familyId}`);
    return stored === null ? [] : deserialize(stored).accessTokens.map((t) => t.hash);
  }

  /** Ends every family of a user (or of one app or device of the user) started up to now. */
  async revokeUser(scope: UserGrantsScope, nowMs: number): Promise<void> {
    await this.kv.set(markerKey(scope), String(nowMs), { ttlMs: MARKER_TTL_MS });
  }

  /** Whether the user's grants were ended (user removed, device blocked) since the family started. */
  endedForUser(family: RefreshFamily): Promise<boolean> {
    return this.endedSince(family, family.createdAt);
  }

  /**
   * Whether a grant of this user (of this app, made on this device) issued at `issuedAtMs` was ended since
   * by Grants.RevokeUserGrants: the same markers end refresh token families and access tokens.
   */
  async endedSince(
    grant: { tenantId: string; sub: string; appId: string; login?: { deviceId: string } },
    issuedAtMs: number,
  ): Promise<boolean> {
    const base = { tenantId: grant.tenantId, sub: grant.sub };
    const keys = [markerKey(base), markerKey({ ...base, appId: grant.appId })];
    if (grant.login?.deviceId) keys.push(markerKey({ ...base, deviceId: grant.login.deviceId }));
    const markers = await this.kv.getMany(keys);
    return markers.some((at) => at !== null && Number(at) >= issuedAtMs);
  }
}

/** An access token issued from a family: revoked with the family until it expires (epoch ms). */
export interface AccessIssued {
  hash: string;
  expiresAt: number;
}

/** How long a used token stays recognisable as one: the family's idle lifetime, within its absolute end. */
function replayWindowMs(family: RefreshFamily, nowMs: number): number {
  return Math.max(1, Math.min(family.idleLifetimeMs, family.absoluteExpiresAt - nowMs));
}

/** Whether a family's token may still be used at `nowMs`: before its absolute end and its idle end. */
export function familyLive(family: RefreshFamily, nowMs: number): boolean {
  return nowMs < family.absoluteExpiresAt && nowMs < family.lastUsedAt + family.idleLifetimeMs;
}

function markerKey(scope: UserGrantsScope): string {
  const base = `refresh-revoked:${scope.tenantId}:${scope.sub}`;
  if (scope.appId) return `${base}:app:${scope.appId}`;
  if (scope.deviceId) return `${base}:device:${scope.deviceId}`;
  return base;
}

function serialize(family: RefreshFamily): string {
  return JSON.stringify({ ...family, claims: grants.AuthenticatedClaims.toJSON(family.claims) });
}

function deserialize(stored: string): RefreshFamily {
  const parsed = JSON.parse(stored) as RefreshFamily & { claims: unknown };
  return { ...parsed, claims: grants.AuthenticatedClaims.fromJSON(parsed.claims) };
}
