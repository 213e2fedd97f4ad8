import type { TokenDeps } from '../deps';
import type { AccessTokenGrant } from './types';

/**
 * A `user` access token whose user was removed (from the tenant or its app) or whose login's device was
 * blocked after it was issued (Grants.RevokeUserGrants): it no longer answers /userinfo or introspection.
 * Tokens issued before issuedAtMs was recorded, and `api` tokens, are not checked.
 */
export function userTokenEnded(
  deps: Pick<TokenDeps, 'refreshTokens'>,
  grant: AccessTokenGrant,
): Promise<boolean> | false {
  if (grant.kind !== 'user' || !grant.sub || !grant.appId || grant.issuedAtMs === undefined) return false;
  return deps.refreshTokens.endedSince(
    { tenantId: grant.tenantId, sub: grant.sub, appId: grant.appId, login: grant.login },
    grant.issuedAtMs,
  );
}
