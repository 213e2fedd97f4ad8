import type { RequestListener } from 'node:http';
import { DpopProblem, dpopInvalidToken, issuerEndpoint, oauthErrors, resourceDpopError } from '@sesame/oauth';
import type { ServiceMetrics } from '@sesame/platform';
import type { TokenDeps } from '../../deps';
import type { AccessTokenGrant } from '../../grants/types';
import { userTokenEnded } from '../../grants/user-token-ended';
import { jsonEndpoint } from '../http/json-endpoint';
import { checkCertificateBinding } from './certificate-bound';
import { type PresentedAccessToken, readBearerToken } from './read-bearer-token';

/**
 * GET or POST {auth_url}/userinfo (OIDC Core 5.3): the Bearer access token of an end-user grant (RFC 6750
 * 2.1, the Authorization header, or 2.2, a POST form body's access_token: readBearerToken) answers sub and
 * the claims of its scope, from the snapshot kept with the token at issue (a refresh takes a new one). No
 * token: 401 with a bare Bearer challenge and no error code; the token in two places: 400 invalid_request;
 * an unknown, expired, revoked or management (client_credentials) token, or one of a user removed or a
 * device blocked since: 401 invalid_token in WWW-Authenticate (3.1).
 * A DPoP-bound token (RFC 9449 §7) must come as `Authorization: DPoP <token>` with a proof by its key for
 * this request (htm, htu, ath): as Bearer, without a proof or with another key's it is 401 invalid_token,
 * and a bad proof 401 invalid_dpop_proof (or use_dpop_nonce), with a DPoP challenge (checkSender).
 * Any origin may call it from a browser (the token is the only credential; see userinfoPreflight).
 */
export function userinfoEndpoint(deps: TokenDeps, method: 'GET' | 'POST', metrics?: ServiceMetrics) {
  return jsonEndpoint(
    deps,
    { method, path: '/userinfo', anyOrigin: true },
    async (x) => {
      const presented = await readBearerToken(x.req);
      const grant = await deps.accessTokens.find(presented.token);
      if (!grant || grant.kind !== 'user' || grant.expiresAt * 1000 <= deps.clock.now())
        throw invalidToken(presented, 'the access token is invalid, expired or revoked');
      await checkSender(deps, x.req.headers.dpop, method, presented, grant);
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

const invalidToken = (presented: PresentedAccessToken, description: string) =>
  presented.scheme === 'DPoP' ? dpopInvalidToken(description) : oauthErrors.invalidToken(description);

/** The sender constraint of RFC 9449 §7: a bound token only with a proof by its key, a DPoP one only bound. */
async function checkSender(
  deps: TokenDeps,
  header: string | string[] | undefined,
  method: 'GET' | 'POST',
  presented: PresentedAccessToken,
  grant: AccessTokenGrant,
): Promise<void> {
  if (presented.scheme === 'Bearer') {
    if (grant.jkt)
      throw dpopInvalidToken(
        'the access token is DPoP-bound: send it as Authorization: DPoP with a DPoP proof',
      );
    return;
  }
  if (!grant.jkt) throw oauthErrors.invalidToken('the access token is not DPoP-bound: send it as Bearer');
  if (header === undefined) throw dpopInvalidToken('a DPoP-bound access token needs a DPoP proof');
  let jkt: string;
  try {
    ({ jkt } = await deps.dpop.verify({
      header,
      method,
      url: issuerEndpoint(deps.config.SESAME_AUTH_URL, '/userinfo'),
      accessToken: presented.token,
    }));
  } catch (err) {
    if (err instanceof DpopProblem) throw resourceDpopError(err);
    throw err;
  }
  if (jkt !== grant.jkt)
    throw dpopInvalidToken('the DPoP proof is not by the key the access token is bound to');
}

/** OPTIONS /userinfo: the CORS preflight of a browser app sending its Bearer token (any origin). */
export const userinfoPreflight: RequestListener = (_req, res) => {
  res.writeHead(204, {
    'Access-Control-Allow-Origin': '*',
    'Access-Control-Allow-Methods': 'GET, POST',
    'Access-Control-Allow-Headers': 'Authorization, Content-Type, DPoP',
    'Access-Control-Max-Age': '600',
  });
  res.end();
};
