import { sha256 } from '@sesame/platform';
import type { TokenDeps } from '../../deps';
import { type FoundRefresh, familyLive } from '../../grants/refresh-tokens';
import type { AccessTokenGrant, RefreshFamily } from '../../grants/types';
import { userTokenEnded } from '../../grants/user-token-ended';

/** A live token presented to /revoke or /introspect, whichever kind it is. */
export type PresentedToken =
  | { kind: 'access_token'; hash: string; grant: AccessTokenGrant }
  | { kind: 'refresh_token'; found: FoundRefresh; family: RefreshFamily };

/**
 * Finds a token by value (RFC 7009 2.1, RFC 7662 2.1): token_type_hint only decides which kind is looked up
 * first; an unknown hint is ignored. Null for a token that is unknown, expired or revoked, or ended for its
 * user (removed, device blocked); for a refresh token also one already rotated or past its family's end.
 */
export async function findLiveToken(
  deps: Pick<TokenDeps, 'accessTokens' | 'refreshTokens' | 'clock'>,
  token: string,
  hint: string | undefined,
): Promise<PresentedToken | null> {
  const lookups = [findAccess, findRefresh];
  if (hint === 'refresh_token') lookups.reverse();
  for (const lookup of lookups) {
    const found = await lookup(deps, token);
    if (found) return found;
  }
  return null;
}

async function findAccess(
  deps: Pick<TokenDeps, 'accessTokens' | 'refreshTokens' | 'clock'>,
  token: string,
): Promise<PresentedToken | null> {
  const grant = await deps.accessTokens.find(token);
  if (!grant || grant.expiresAt * 1000 <= deps.clock.now()) return null;
  if (await userTokenEnded(deps, grant)) return null;
  return { kind: 'access_token', hash: sha256(token), grant };
}

async function findRefresh(
  deps: Pick<TokenDeps, 'refreshTokens' | 'clock'>,
  token: string,
): Promise<PresentedToken | null> {
  const found = await deps.refreshTokens.find(token);
  const family = found?.family;
  if (!found || !family || family.current !== found.hash || !familyLive(family, deps.clock.now()))
    return null;
  if (await deps.refreshTokens.endedForUser(family)) return null;
  return { kind: 'refresh_token', found, family };
}
