import {
  type ClientCredentials,
  type PresentedCertificate,
  authenticateClient,
  throttledClientAuth,
} from '@sesame/oauth';
import type { directory } from '@sesame/proto';
import type { CibaDeps } from './deps';

/**
 * Authenticates the client through the Directory under the same failure throttle as /token
 * (@sesame/oauth): 429 once this caller failed too often; each Directory call reserves a slot first, kept as
 * a failure on invalid_client. A secret, a private_key_jwt assertion for an app registered for it, or (client_id
 * alone) the TLS client certificate of an app registered for mutual TLS (RFC 8705; `certificate` reads it
 * from the connection or the terminator's header, as /token and /par do). No public clients.
 */
export function authenticateCibaClient(
  deps: Pick<CibaDeps, 'authFailures' | 'grants' | 'assertions' | 'mtls'>,
  credentials: ClientCredentials,
  clientIp: string,
  endpointUrl?: string,
  certificate?: () => PresentedCertificate | undefined,
): Promise<directory.Client> {
  const mtls = deps.mtls && certificate ? { certificate, keys: deps.mtls.keys } : undefined;
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
      { allowPublic: false, assertions: deps.assertions, endpointUrl, ...(mtls ? { mtls } : {}) },
    ),
  );
}
