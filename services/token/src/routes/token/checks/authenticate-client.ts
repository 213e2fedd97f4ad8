import { type AuthenticateClientOptions, throttledClientAuth } from '@sesame/oauth';
import type { TokenDeps } from '../../../deps';
import type { ClientDirectory } from '../../../directory/directory';
import type { TokenRequest } from '../token-request';

export { authenticateClient } from '@sesame/oauth';

/**
 * Runs one client authentication of /token under its failure throttle (@sesame/oauth throttledClientAuth):
 * the Directory port handed to `authenticate` reserves a slot before each call that reaches the Directory;
 * answers from the cache take none.
 */
export function throttled<T>(
  deps: Pick<TokenDeps, 'authFailures' | 'directory'>,
  request: TokenRequest,
  clientId: string,
  authenticate: (directory: ClientDirectory) => Promise<T>,
): Promise<T> {
  return throttledClientAuth(deps.authFailures, clientId, request.clientIp, (beforeDirectoryCall) =>
    authenticate(deps.directory.through(beforeDirectoryCall)),
  );
}

/** Mutual TLS for authenticateClient: this request's certificate, read only if the client is registered for it. */
export function mtlsOf(
  deps: Pick<TokenDeps, 'clientJwks'>,
  request: TokenRequest,
): NonNullable<AuthenticateClientOptions['mtls']> {
  return { certificate: request.certificate ?? (() => undefined), keys: deps.clientJwks };
}
