import { ADMIN_API_SCOPE, oauthErrors } from '@sesame/oauth';
import type { TokenDeps } from '../../../deps';
import { issueApiToken } from '../../../grants/issue-tokens';
import { throttled } from '../checks/authenticate-client';
import { checkDpop } from '../checks/check-dpop';
import { readClientCredentials } from '../checks/read-client-credentials';
import type { GrantHandler } from '../token-request';

/** grant_type=client_credentials: a management bearer token for API credentials (spec 5.2). */
export function clientCredentialsGrant(deps: TokenDeps): GrantHandler {
  return async (request) => {
    const credentials = readClientCredentials(request);
    // API credentials have a secret and no keys.
    if (credentials.method === 'none' || credentials.method === 'private_key_jwt')
      throw oauthErrors.invalidClient('client authentication failed');
    const principal = await throttled(deps, request, credentials.clientId, async (directory) => {
      const found = await directory.authenticateApiCredentials(
        credentials.clientId,
        credentials.clientSecret,
      );
      if (!found) throw oauthErrors.invalidClient('client authentication failed');
      return found;
    });
    if (request.params.scope !== ADMIN_API_SCOPE)
      throw oauthErrors.invalidScope(`scope must be ${ADMIN_API_SCOPE}`);
    // API credentials have no per-credential DPoP requirement: a proof, when sent, binds the token.
    const jkt = request.dpop === undefined ? undefined : await checkDpop(deps, request, {});
    return { status: 200, body: { ...(await issueApiToken(deps, principal, ADMIN_API_SCOPE, jkt)) } };
  };
}
