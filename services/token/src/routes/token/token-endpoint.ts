import type { ServiceMetrics } from '@sesame/platform';
import type { TokenDeps } from '../../deps';
import { jsonEndpoint, readBody } from '../http/json-endpoint';
import { checkFormContentType } from './checks/check-content-type';
import { readFormParams } from './checks/read-form-params';
import { selectGrant } from './checks/select-grant';
import { grantHandlers } from './grants/grant-handlers';

export { noStoreHeaders } from '../http/json-endpoint';

/**
 * POST {auth_url}/token (spec 4.1) as a node:http handler, read top down: form body only, parameters once
 * each, then the grant's handler with its own ordered checks (jsonEndpoint renders answers and errors).
 */
export function tokenEndpoint(deps: TokenDeps, metrics?: ServiceMetrics) {
  const handlers = grantHandlers(deps);
  return jsonEndpoint(
    deps,
    { method: 'POST', path: '/token' },
    async (x) => {
      const { req } = x;
      checkFormContentType(req.headers['content-type']);
      const request = readFormParams(await readBody(req), req.headers.authorization, x.clientIp);
      request.certificate = x.certificate;
      x.clientId = request.params.client_id;
      if (req.headers.dpop !== undefined) request.dpop = req.headers.dpop;
      return selectGrant(request, handlers)(request);
    },
    metrics,
  );
}
