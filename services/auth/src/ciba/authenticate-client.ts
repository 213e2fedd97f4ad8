import type { directory } from '@sesame/proto';
import { cibaErrors } from './ciba-errors';
import type { ClientCredentials } from './client-credentials';
import type { CibaDeps } from './deps';

/**
 * Authenticates the client through the Directory under the same failure throttle as /token: 429 once this
 * caller failed too often; each Directory call reserves a slot first, kept as a failure on invalid_client.
 */
export async function authenticateCibaClient(
  deps: Pick<CibaDeps, 'authFailures' | 'grants'>,
  credentials: ClientCredentials,
  clientIp: string,
): Promise<directory.Client> {
  await deps.authFailures.assertAllowed(credentials.clientId, clientIp);
  const attempt = await deps.authFailures.reserve(credentials.clientId, clientIp);
  let client: directory.Client | undefined;
  try {
    client = await deps.grants.authenticateClient(credentials.clientId, credentials.clientSecret);
  } catch (err) {
    await attempt.succeeded();
    throw err;
  }
  if (!client) {
    await attempt.failed();
    throw cibaErrors.invalidClient('client authentication failed');
  }
  await attempt.succeeded();
  return client;
}
