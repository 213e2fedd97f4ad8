import { grants } from '@sesame/proto';
import type { TokenDeps } from '../deps';
import { userTokenEnded } from '../grants/user-token-ended';

/** An unknown, revoked or expired token: every member its proto default. */
const inactive = grants.IntrospectAccessTokenResponse.create({ active: false });

/**
 * Grants.IntrospectAccessToken: what a bearer token is bound to; unknown, revoked or expired, or a user token
 * of a user removed (or a device blocked) since → active false.
 */
export function introspectAccessToken(deps: TokenDeps) {
  return async (
    request: grants.IntrospectAccessTokenRequest,
  ): Promise<grants.IntrospectAccessTokenResponse> => {
    if (!request.accessToken) return inactive;
    const grant = await deps.accessTokens.find(request.accessToken);
    if (!grant || grant.expiresAt * 1000 <= deps.clock.now()) return inactive;
    if (await userTokenEnded(deps, grant)) return inactive;
    // A DPoP-bound token is good only with a proof by its key; the gRPC callers (the management API,
    // interactive init, session feedback) take Bearer tokens and check no proof, so it is not active there.
    if (grant.jkt) return inactive;
    return {
      active: true,
      tenantId: grant.tenantId,
      clientId: grant.clientId,
      credentialsId: grant.credentialsId ?? '',
      scope: grant.scope,
      expiresAt: grant.expiresAt,
      sub: grant.sub ?? '',
      kind: grant.kind,
      appId: grant.appId ?? '',
      ...(grant.login ? { login: grant.login } : {}),
    };
  };
}
