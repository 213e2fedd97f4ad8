import type { RequestListener } from 'node:http';
import { oauthErrors } from '@sesame/oauth';
import type { ServiceMetrics } from '@sesame/platform';
import type { TokenDeps } from '../../deps';
import { userTokenEnded } from '../../grants/user-token-ended';
import { jsonEndpoint } from '../http/json-endpoint';
import { checkCertificateBinding } from './certificate-bound';
import { readBearerToken } from './read-bearer-token';

/**
 * GET or POST {auth_url}/userinfo (OIDC Core 5.3): the Bearer access token of an end-user grant (RFC 6750
 * 2.1, the Authorization header, or 2.2, a POST form body's access_token: readBearerToken) answers sub and
 * the claims of its scope, from the snapshot kept with the token at issue (a refresh takes a new one). No
 * token: 401 with a bare Bearer challenge and no error code; the token in two places: 400 invalid_request;
 * an unknown, expired, revoked or management (client_credentials) token, or one of a user removed or a
 * device blocked since: 401 invalid_token in WWW-Authenticate (3.1).
 * Any origin may call it from a browser (the token is the only credential; see userinfoPreflight).
 */
export function userinfoEndpoint(deps: TokenDeps, method: 'GET' | 'POST', metrics?: ServiceMetrics) {
  return jsonEndpoint(
    deps,
    { method, path: '/userinfo', anyOrigin: true },
    async (x) => {
      const token = await readBearerToken(x.req);
      const grant = await deps.accessTokens.find(token);
      if (!grant || grant.kind !== 'user' || grant.expiresAt * 1000 <= deps.clock.now())
        throw oauthErrors.invalidToken('the access token is invalid, expired or revoked');
      if (await userTokenEnded(deps, grant))
        throw oauthErrors.invalidToken('the access token is invalid, expired or revoked');
      checkCertificateBinding(grant, x.certificate());
      if (!grant.scope.split(' ').includes('openid'))
        throw oauthErrors.invalidToken('the access token was not issued for openid');
      return { status: 200, body: { ...(grant.userinfo ?? { sub: grant.sub }) } };
    },
    metrics,
  );
}

/** OPTIONS /userinfo: the CORS preflight of a browser app sending its Bearer token (any origin). */
export const userinfoPreflight: RequestListener = (_req, res) => {
  res.writeHead(204, {
    'Access-Control-Allow-Origin': '*',
    'Access-Control-Allow-Methods': 'GET, POST',
    'Access-Control-Allow-Headers': 'Authorization, Content-Type',
    'Access-Control-Max-Age': '600',
  });
  res.end();
};
