import type { TokenDeps } from '../../../deps';
import type { FoundCode } from '../../../grants/codes';
import { issueUserTokens } from '../../../grants/issue-tokens';
import { authenticateClient, throttled } from '../checks/authenticate-client';
import { checkCodeClient } from '../checks/check-code-client';
import { checkPkce } from '../checks/check-pkce';
import { checkRedirectUri } from '../checks/check-redirect-uri';
import { readClientCredentials } from '../checks/read-client-credentials';
import { requireParam } from '../checks/read-form-params';
import { tokenErrors } from '../errors';
import type { GrantHandler } from '../token-request';

/** grant_type=authorization_code: confidential clients with their secret, public clients with PKCE S256. */
export function authorizationCodeGrant(deps: TokenDeps): GrantHandler {
  return async (request) => {
    const credentials = readClientCredentials(request);
    const client = await throttled(deps, request, credentials.clientId, (directory) =>
      authenticateClient(directory, credentials, { allowPublic: true }),
    );
    const code = requireParam(request, 'code');
    const redirectUri = requireParam(request, 'redirect_uri');
    const found = await claimCode(deps, code);
    checkCodeClient(found.grant, client);
    checkRedirectUri(found.grant.redirectUri, redirectUri);
    checkPkce(found.grant.codeChallenge, request.params.code_verifier);
    const { grant } = found;
    const issued = await issueUserTokens(deps, grant);
    await guardAgainstConcurrentReplay(deps, found, issued.accessTokenHash);
    return { status: 200, body: { ...issued.response } };
  };
}

/** Single use: one redemption claims the code; any other use is a replay and revokes what it yielded. */
async function claimCode(deps: TokenDeps, code: string): Promise<FoundCode> {
  const found = await deps.codes.find(code);
  if (found && (await deps.codes.claim(found.hash))) return found;
  const issued = await deps.codes.registerReplay(code);
  if (issued === null) throw tokenErrors.invalidGrant('code is invalid or expired');
  await deps.accessTokens.revoke(issued);
  deps.logger.warn(
    { revokedTokens: issued.length },
    'authorization code replayed; tokens issued from it revoked',
  );
  throw tokenErrors.invalidGrant('code was already used');
}

async function guardAgainstConcurrentReplay(deps: TokenDeps, found: FoundCode, accessTokenHash: string) {
  if (await deps.codes.recordIssued(found.hash, [accessTokenHash])) {
    await deps.accessTokens.revoke([accessTokenHash]);
    throw tokenErrors.invalidGrant('code was already used');
  }
}
