import {
  type AuthAttempt,
  type AuthFailurePort,
  isMtlsAuthMethod,
  oauthErrors,
  readClientCredentials,
  throttledClientAuth,
  usesPrivateKeyJwt,
} from '@sesame/oauth';
import type { TokenDeps } from '../../deps';
import type { Client } from '../../directory/directory';
import { authenticateClient, mtlsOf } from '../token/checks/authenticate-client';
import type { TokenRequest } from '../token/token-request';

/** Who calls /revoke or /introspect: an application (OIDC client), or API credentials of a tenant. */
export type Caller = { kind: 'app'; client: Client } | { kind: 'api'; tenantId: string };

export interface CallerRules {
  /** A public client may call with its client_id alone (RFC 7009 2.1: revoking its own tokens). */
  allowPublic: boolean;
  /** API credentials may call (introspection of their tenant's tokens). */
  allowApiCredentials: boolean;
}

/**
 * Client authentication of /revoke and /introspect: the methods, Directory checks and failure throttle of
 * /token (@sesame/oauth). A secret is tried as an application's first, then (where allowed) as API
 * credentials'; any miss is the same invalid_client.
 */
export function authenticateCaller(
  deps: Pick<TokenDeps, 'authFailures' | 'directory' | 'assertions' | 'clientJwks'>,
  request: TokenRequest,
  rules: CallerRules,
  endpointUrl?: string,
): Promise<Caller> {
  // A client_id alone is read everywhere: a public client where allowed, or a client whose certificate
  // authenticates it (mutual TLS); anyone else without a secret is invalid_client below.
  const credentials = readClientCredentials(request.authorization, request.params, { allowNone: true });
  const failures = oneSlotAtATime(deps.authFailures);
  return throttledClientAuth(failures, credentials.clientId, request.clientIp, async (before) => {
    const directory = deps.directory.through(before);
    if (credentials.method === 'none' || credentials.method === 'private_key_jwt') {
      const options = {
        allowPublic: true,
        assertions: deps.assertions,
        endpointUrl,
        mtls: mtlsOf(deps, request),
      };
      const client = await authenticateClient(directory, credentials, options);
      const byCertificate = isMtlsAuthMethod(client.tokenEndpointAuthMethod);
      if (credentials.method === 'none' && !rules.allowPublic && !byCertificate)
        throw oauthErrors.invalidClient('client authentication failed');
      return { kind: 'app', client };
    }
    const client = await directory.authenticateClient(credentials.clientId, credentials.clientSecret);
    if (client && !usesPrivateKeyJwt(client) && !isMtlsAuthMethod(client.tokenEndpointAuthMethod))
      return { kind: 'app', client };
    if (rules.allowApiCredentials) {
      const principal = await directory.authenticateApiCredentials(
        credentials.clientId,
        credentials.clientSecret,
      );
      if (principal) return { kind: 'api', tenantId: principal.tenantId };
    }
    throw oauthErrors.invalidClient('client authentication failed');
  }) as Promise<Caller>;
}

/**
 * The throttle as one authentication sees it when it may ask the Directory twice (an app's secret, then API
 * credentials'): a second reservation gives the first back, so a request holds one slot and counts as at
 * most one failure (throttledClientAuth settles only the last).
 */
function oneSlotAtATime(port: AuthFailurePort): AuthFailurePort {
  let previous: AuthAttempt | undefined;
  return {
    assertAllowed: (clientId, ip) => port.assertAllowed(clientId, ip),
    async reserve(clientId, ip) {
      await previous?.succeeded();
      previous = await port.reserve(clientId, ip);
      return previous;
    },
  };
}

/** A token belongs to the caller: an app's own tokens, or any token of the API credentials' tenant. */
export function ownedBy(caller: Caller, token: { clientId: string; tenantId: string }): boolean {
  if (caller.kind === 'app') return token.clientId === caller.client.clientId;
  return token.tenantId === caller.tenantId;
}
