import type { ServiceMetrics } from '@sesame/platform';
import type { TokenDeps } from '../../deps';
import { jsonEndpoint } from '../http/json-endpoint';
import { revokeFamily } from '../token/grants/refresh-token';
import { findCallersToken } from './callers-token';

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
      const found = await findCallersToken(deps, x, { allowPublic: true, allowApiCredentials: false });
      if (found?.kind === 'access_token') await deps.accessTokens.revoke([found.hash]);
      else if (found?.kind === 'refresh_token') await revokeFamily(deps, found.family.id);
      return { status: 200, body: {} };
    },
    metrics,
  );
}
