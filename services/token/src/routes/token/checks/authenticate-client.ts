import { OAuthError } from '@sesame/platform';
import { directory } from '@sesame/proto';
import type { TokenDeps } from '../../../deps';
import type { Client, ClientDirectory } from '../../../directory/directory';
import type { AuthAttempt } from '../../../grants/auth-failures';
import { tokenErrors } from '../errors';
import type { TokenRequest } from '../token-request';
import type { ClientCredentials } from './read-client-credentials';

/**
 * Runs one client authentication under the failure throttle: refused with 429 once this caller has failed too
 * often; a call that reaches the Directory reserves its slot first (answers from the cache only read the
 * counts), and every invalid_client it ends in keeps that slot as a failure.
 */
export async function throttled<T>(
  deps: Pick<TokenDeps, 'authFailures' | 'directory'>,
  request: TokenRequest,
  clientId: string,
  authenticate: (directory: ClientDirectory) => Promise<T>,
): Promise<T> {
  await deps.authFailures.assertAllowed(clientId, request.clientIp);
  let attempt: AuthAttempt | undefined;
  const directoryPort = deps.directory.through(async () => {
    attempt = await deps.authFailures.reserve(clientId, request.clientIp);
  });
  try {
    const result = await authenticate(directoryPort);
    // Answered from the cache: no slot was taken (and no extra await on the hot path).
    if (attempt) await attempt.succeeded();
    return result;
  } catch (err) {
    if (attempt) {
      const failed = err instanceof OAuthError && err.code === 'invalid_client';
      await (failed ? attempt.failed() : attempt.succeeded());
    }
    throw err;
  }
}

/**
 * Authenticates an application (OIDC client) through the Directory. A confidential client must present
 * its secret; a public client presents none and may only use grants that allow it (PKCE code flow).
 */
export async function authenticateClient(
  directoryPort: ClientDirectory,
  credentials: ClientCredentials,
  opts: { allowPublic: boolean; allowSecretless?: boolean },
): Promise<Client> {
  if (credentials.method === 'none') {
    const client = await directoryPort.getClient(credentials.clientId);
    if (!client) throw tokenErrors.invalidClient('client authentication failed');
    // A confidential client without its secret: only where the grant authenticates it otherwise (the code
    // exchange, by the PKCE verifier: spec 5.1; the grant checks the code has a challenge).
    if (client.type !== directory.ClientType.CLIENT_TYPE_PUBLIC && opts.allowSecretless) return client;
    // The same answer as an unknown client or a wrong secret: which client_ids exist is not for callers to learn.
    if (client.type !== directory.ClientType.CLIENT_TYPE_PUBLIC)
      throw tokenErrors.invalidClient('client authentication failed');
    if (!opts.allowPublic)
      throw tokenErrors.unauthorizedClient('a public client may not use this grant type');
    return client;
  }
  const client = await directoryPort.authenticateClient(credentials.clientId, credentials.clientSecret);
  if (!client) throw tokenErrors.invalidClient('client authentication failed');
  return client;
}
