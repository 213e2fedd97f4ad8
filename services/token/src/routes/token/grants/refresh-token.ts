import { isFapi2, oauthErrors } from '@sesame/oauth';
import type { TokenDeps } from '../../../deps';
import { refreshLifetimesOf } from '../../../grants/granted-scope';
import { issueUserTokens } from '../../../grants/issue-tokens';
import { type FoundRefresh, familyLive } from '../../../grants/refresh-tokens';
import type { RefreshFamily } from '../../../grants/types';
import { authenticateClient, mtlsOf, throttled } from '../checks/authenticate-client';
import { certificateBinding } from '../checks/certificate-binding';
import { checkBoundKey, checkDpop } from '../checks/check-dpop';
import { readClientCredentials } from '../checks/read-client-credentials';
import { requireParam } from '../checks/read-form-params';
import type { GrantHandler, TokenRequest } from '../token-request';

/**
 * grant_type=refresh_token (RFC 6749 6, OIDC Core 12), with the client authentication of the code grant
 * (a public client by its client_id: its tokens are rotated, RFC 9700 4.14.2). Checks, in order, each
 * before the token is used up: the token is known and was issued to this client, the app still allows
 * refresh tokens, the family lives (not revoked, not past its absolute or idle end, the user not removed nor
 * the login's device blocked), the scope asked is within the granted one. Then the token is used: a second
 * use of any token of the family (a replay: stolen or leaked) revokes the whole family and its access
 * tokens. A use answers a new access token, ID token (the sign-in's claims, auth_time kept, no nonce: Core
 * 12.2; the standard claims of the sign-in's claims parameter too) and the family's next refresh token. A FAPI
 * 2.0 app's tokens are not rotated (§5.3.2.1): its current token stays good and is answered again.
 * Claims come from the family's snapshot of the sign-in: an email changed since is not asked of auth (the
 * next sign-in carries it).
 */
export function refreshTokenGrant(deps: TokenDeps): GrantHandler {
  return async (request) => {
    const credentials = readClientCredentials(request);
    const client = await throttled(deps, request, credentials.clientId, (directory) =>
      authenticateClient(directory, credentials, {
        allowPublic: true,
        assertions: deps.assertions,
        mtls: mtlsOf(deps, request),
      }),
    );
    const jkt = await checkDpop(deps, request, client);
    const binding = certificateBinding(client, request);
    const presented = requireParam(request, 'refresh_token');
    const found = await deps.refreshTokens.find(presented);
    if (!found || found.clientId !== client.clientId)
      throw oauthErrors.invalidGrant('refresh token is invalid or was not issued to this client');
    if (!refreshLifetimesOf(client))
      throw oauthErrors.unauthorizedClient('this client may not use refresh tokens');
    const family = await liveFamily(deps, found);
    checkBoundKey(family.jkt, jkt, 'the refresh token');
    const scope = narrowedScope(request, family.scope);
    const rotates = !isFapi2(client);
    if (!rotates && found.hash !== family.current) {
      // A token the family rotated away from before the app took the FAPI 2.0 profile: still a replay.
      await revokeFamily(deps, family.id);
      throw oauthErrors.invalidGrant('refresh token was already used');
    }
    if (rotates && !(await deps.refreshTokens.claim({ ...found, family }, deps.clock.now()))) {
      await revokeFamily(deps, family.id);
      deps.logger.warn({ clientId: client.clientId }, 'refresh token replayed; its family revoked');
      throw oauthErrors.invalidGrant('refresh token was already used');
    }
    const issued = await issueUserTokens(deps, {
      tenantId: family.tenantId,
      appId: family.appId,
      clientId: family.clientId,
      scope,
      idTokenAlg: client.idTokenSignedResponseAlg,
      claims: { ...family.claims, nonce: '' },
      ...(family.requestedClaims ? { requestedClaims: family.requestedClaims } : {}),
      ...(family.login ? { login: family.login } : {}),
      ...(jkt ? { jkt } : {}),
      ...binding,
    });
    const accessIssued = { hash: issued.accessTokenHash, expiresAt: issued.accessTokenExpiresAtMs };
    // FAPI 2.0 §5.3.2.1: no rotation, so a client that lost this answer retries with the same token.
    const next = rotates
      ? await deps.refreshTokens.rotate(family, deps.clock.now(), accessIssued)
      : (await deps.refreshTokens.reuse(family, deps.clock.now(), accessIssued)) && presented;
    if (!next) {
      await deps.accessTokens.revoke([issued.accessTokenHash]);
      throw oauthErrors.invalidGrant('refresh token was revoked');
    }
    return { status: 200, body: { ...issued.response, refresh_token: next } };
  };
}

/** The family of a presented token, if it may still refresh; a dead one is revoked and refused. */
async function liveFamily(deps: TokenDeps, found: FoundRefresh): Promise<RefreshFamily> {
  const { family } = found;
  if (!family) throw oauthErrors.invalidGrant('refresh token is invalid or expired');
  if (!familyLive(family, deps.clock.now())) {
    await revokeFamily(deps, family.id);
    throw oauthErrors.invalidGrant('refresh token is invalid or expired');
  }
  if (await deps.refreshTokens.endedForUser(family)) {
    await revokeFamily(deps, family.id);
    throw oauthErrors.invalidGrant('refresh token was revoked');
  }
  return family;
}

/** RFC 6749 6: a refresh may ask for less than was granted, never more (invalid_scope). */
function narrowedScope(request: TokenRequest, granted: string): string {
  const asked = request.params.scope;
  if (asked === undefined) return granted;
  const grantedSet = new Set(granted.split(' '));
  const scopes = [...new Set(asked.split(' ').filter(Boolean))];
  if (!scopes.includes('openid') || scopes.some((s) => !grantedSet.has(s)))
    throw oauthErrors.invalidScope('scope must include openid and stay within the granted scope');
  return scopes.join(' ');
}

export async function revokeFamily(deps: Pick<TokenDeps, 'refreshTokens' | 'accessTokens'>, id: string) {
  await deps.accessTokens.revoke(await deps.refreshTokens.revokeFamily(id));
}
