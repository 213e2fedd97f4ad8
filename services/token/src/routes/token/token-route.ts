import express, { type Router } from 'express';
import type { TokenDeps } from '../../deps';
import { readFormParams } from './checks/read-form-params';
import { requireFormBody } from './checks/require-form-body';
import { CIBA_GRANT_TYPE, selectGrant } from './checks/select-grant';
import { setNoStoreHeaders } from './checks/set-no-store-headers';
import { authorizationCodeGrant } from './grants/authorization-code';
import { cibaGrant } from './grants/ciba';
import { clientCredentialsGrant } from './grants/client-credentials';
import type { GrantHandler } from './token-request';

/**
 * POST {auth_url}/token (spec 4.1), read top down: no-store headers on every answer, form body only,
 * parameters once each, the grant's handler, which runs its own ordered checks.
 */
export function tokenRoute(deps: TokenDeps): Router {
  const handlers: Record<string, GrantHandler> = {
    authorization_code: authorizationCodeGrant(deps),
    [CIBA_GRANT_TYPE]: cibaGrant(deps),
    client_credentials: clientCredentialsGrant(deps),
  };
  const router = express.Router();
  router.post(
    '/token',
    setNoStoreHeaders,
    requireFormBody,
    express.text({ type: 'application/x-www-form-urlencoded', limit: '16kb' }),
    (req, res, next) => {
      const request = readFormParams(req.body, req.headers.authorization);
      selectGrant(request, handlers)(request).then((answer) => {
        // The headers are already set; end() skips res.json's ETag hashing on every token response.
        res.statusCode = answer.status;
        res.end(JSON.stringify(answer.body));
      }, next);
    },
  );
  router.all('/token', setNoStoreHeaders, (_req, res) => {
    res.status(405).setHeader('Allow', 'POST');
    res.end(JSON.stringify({ error: 'invalid_request', error_description: '/token accepts POST only' }));
  });
  return router;
}
