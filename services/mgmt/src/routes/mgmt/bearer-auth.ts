import { ADMIN_API_SCOPE as MGMT_SCOPE } from '@sesame/oauth';
import { type Clock, MgmtError } from '@sesame/platform';
import type { RequestHandler } from 'express';
import type { CredentialsRepository } from '../../directory/directory.repository';
import { type GrantsPeer, peerUnavailable } from '../../peers';
import type { MgmtPrincipal } from '../../principal';

const REALM = 'sesame-mgmt';

function unauthorized(message: string, tokenGiven: boolean): MgmtError {
  const err = new MgmtError(401, tokenGiven ? 'invalid_token' : 'unauthorized', message);
  // RFC 6750 §3.1: no error code when the request carried no token at all.
  err.headers['WWW-Authenticate'] = tokenGiven
    ? `Bearer realm="${REALM}", error="invalid_token", error_description="${message}"`
    : `Bearer realm="${REALM}"`;
  return err;
}

/**
 * Management API authentication (spec 5.2): `Authorization: Bearer <access token>` from /token
 * client_credentials with scope svc_admin_api, checked with Grants.IntrospectAccessToken. Missing, unknown,
 * inactive, expired or wrong-scope tokens, and tokens of revoked or unknown credentials, are 401. Sets
 * res.locals.principal to the token's tenant and credentials.
 */
export function bearerAuth(deps: {
  grants: GrantsPeer;
  credentials: CredentialsRepository;
  clock: Clock;
}): RequestHandler {
  return (req, res, next) => {
    const header = req.header('authorization');
    if (!header) return next(unauthorized('a bearer token is required', false));
    const match = /^Bearer ([A-Za-z0-9\-._~+/]+=*)$/i.exec(header);
    if (!match) return next(unauthorized('the Authorization header must be "Bearer <access token>"', true));
    check(match[1]!).then((principal) => {
      res.locals.principal = principal;
      next();
    }, next);
  };

  async function check(accessToken: string): Promise<MgmtPrincipal> {
    const token = await deps.grants.introspectAccessToken({ accessToken }).catch((err: unknown) => {
      throw peerUnavailable(err, 'token introspection');
    });
    if (!token.active || !token.tenantId || !token.credentialsId) {
      throw unauthorized('the access token is not valid', true);
    }
    if (token.expiresAt && token.expiresAt * 1000 <= deps.clock.now()) {
      throw unauthorized('the access token has expired', true);
    }
    if (!token.scope.split(' ').includes(MGMT_SCOPE)) {
      throw unauthorized(`the access token lacks the ${MGMT_SCOPE} scope`, true);
    }
    const credentials = await deps.credentials.get(token.tenantId, token.credentialsId);
    if (!credentials || credentials.revokedAt !== undefined) {
      throw unauthorized('the API credentials of this token were revoked', true);
    }
    return { tenantId: token.tenantId, credentialsId: token.credentialsId };
  }
}
