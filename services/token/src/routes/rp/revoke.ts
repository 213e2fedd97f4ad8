import type { ServiceMetrics } from '@sesame/platform';
import type { TokenDeps } from '../../deps';
import { jsonEndpoint } from '../http/json-endpoint';
import { requireParam } from '../token/checks/read-form-params';
import { revokeFamily } from '../token/grants/refresh-token';
import { authenticateCaller, ownedBy } from './authenticate-caller';
import { findLiveToken } from './find-token';
import { readFormRequest } from './form-request';

/**
 * POST {auth_url}/revoke (RFC 7009): an application revokes one of its own tokens. A refresh token ends its
 * whole family and the access tokens issued from it; an access token ends alone. The answer is 200 whether
 * or not anything was revoked (2.2): a token that is unknown, already revoked, or another client's changes
 * nothing and is not told apart.
 */
export function revokeEndpoint(deps: TokenDeps, metrics?: ServiceMetrics) {
  return jsonEndpoint(
    deps,
    { method: 'POST', path: '/revoke' },
    async (x) => {
      const request = await readFormRequest(x);
      const caller = await authenticateCaller(deps, request, {
        allowPublic: true,
        allowApiCredentials: false,
      });
      const token = requireParam(request, 'token');
      const found = await findLiveToken(deps, token, request.params.token_type_hint);
      if (found?.kind === 'access_token' && ownedBy(caller, found.grant)) {
        await deps.accessTokens.revoke([found.hash]);
      } else if (found?.kind === 'refresh_token' && ownedBy(caller, found.family)) {
        await revokeFamily(deps, found.family.id);
      }
      return { status: 200, body: {} };
    },
    metrics,
  );
}
