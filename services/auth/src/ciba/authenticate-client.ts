import {
  type AssertionCredentials,
  type SecretCredentials,
  authenticateClient,
  throttledClientAuth,
} from '@sesame/oauth';
import type { directory } from '@sesame/proto';
import type { CibaDeps } from './deps';

/**
 * Authenticates the client through the Directory under the same failure throttle as /token
 * (@sesame/oauth): 429 once this caller failed too often; each Directory call reserves a slot first, kept as
 * a failure on invalid_client. A secret, or a private_key_jwt assertion for an app registered for it.
 */
export function authenticateCibaClient(
  deps: Pick<CibaDeps, 'authFailures' | 'grants' | 'assertions'>,
  credentials: SecretCredentials | AssertionCredentials,
  clientIp: string,
  endpointUrl?: string,
): Promise<directory.Client> {
  return throttledClientAuth(deps.authFailures, credentials.clientId, clientIp, (beforeDirectoryCall) =>
    authenticateClient(
      {
        authenticateClient: async (clientId, clientSecret) => {
          await beforeDirectoryCall();
          return deps.grants.authenticateClient(clientId, clientSecret);
        },
        getClient: async (clientId) => {
          await beforeDirectoryCall();
          return deps.grants.getClient(clientId);
        },
      },
      credentials,
      { allowPublic: false, assertions: deps.assertions, endpointUrl },
    ),
  );
}
