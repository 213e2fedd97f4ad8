import { OAuthError } from '@sesame/platform';
import { directory } from '@sesame/proto';
import type { ClientCredentials, SecretCredentials } from './client-credentials';
import { oauthErrors } from './errors';

/** A slot taken before the Directory is asked: given back on success, kept as the failure otherwise. */
export interface AuthAttempt {
  succeeded(): Promise<void>;
  failed(): Promise<void>;
}

/** The service's failure throttle (AuthFailureThrottle of @sesame/kv, in each service's own namespace). */
export interface AuthFailurePort {
  /** Throws 429 once this caller failed too often. */
  assertAllowed(clientId: string, ip: string): Promise<void>;
  reserve(clientId: string, ip: string): Promise<AuthAttempt>;
}

/**
 * Runs one client authentication under the failure throttle: refused with 429 once this caller has failed
 * too often. `authenticate` gets `beforeDirectoryCall`, to await before each call that reaches the Directory:
 * that call reserves a slot first (an answer from a cache takes none and only reads the counts). An
 * invalid_client the authentication ends in keeps the slot as a failure; any other end gives it back.
 */
export async function throttledClientAuth<T>(
  failures: AuthFailurePort,
  clientId: string,
  clientIp: string,
  authenticate: (beforeDirectoryCall: () => Promise<void>) => Promise<T>,
): Promise<T> {
  await failures.assertAllowed(clientId, clientIp);
  let attempt: AuthAttempt | undefined;
  const beforeDirectoryCall = async () => {
    attempt = await failures.reserve(clientId, clientIp);
  };
  try {
    const result = await authenticate(beforeDirectoryCall);
    // Answered from a cache: no slot was taken (and no extra await on the hot path).
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

/** The Directory as client authentication needs it: null or undefined for an unknown client or wrong secret. */
export interface ClientLookup<C extends Pick<directory.Client, 'type'>> {
  getClient(clientId: string): Promise<C | null | undefined>;
  authenticateClient(clientId: string, clientSecret: string): Promise<C | null | undefined>;
}

export interface AuthenticateClientOptions {
  /** A public client may use this grant or endpoint (else unauthorized_client). */
  allowPublic: boolean;
  /**
   * A confidential client may come without its secret: only where the grant authenticates it otherwise
   * (the code exchange, by the PKCE verifier: spec 5.1; the grant checks the code has a challenge).
   */
  allowSecretless?: boolean;
}

/**
 * Authenticates an application (OIDC client) through the Directory. A confidential client must present
 * its secret; a public client presents none and may only use what allows it. Unknown client, wrong secret
 * and a confidential client without its secret all get the same invalid_client: which client_ids exist is
 * not for callers to learn.
 */
export async function authenticateClient<C extends Pick<directory.Client, 'type'>>(
  lookup: Pick<ClientLookup<C>, 'authenticateClient'>,
  credentials: SecretCredentials,
  options: AuthenticateClientOptions,
): Promise<C>;
export async function authenticateClient<C extends Pick<directory.Client, 'type'>>(
  lookup: ClientLookup<C>,
  credentials: ClientCredentials,
  options: AuthenticateClientOptions,
): Promise<C>;
export async function authenticateClient<C extends Pick<directory.Client, 'type'>>(
  lookup: Pick<ClientLookup<C>, 'authenticateClient'> & Partial<ClientLookup<C>>,
  credentials: ClientCredentials,
  options: AuthenticateClientOptions,
): Promise<C> {
  if (credentials.method === 'none') {
    // The overloads make a lookup without getClient take secret credentials only.
    const client = await (lookup as ClientLookup<C>).getClient(credentials.clientId);
    if (!client) throw oauthErrors.invalidClient('client authentication failed');
    const isPublic = client.type === directory.ClientType.CLIENT_TYPE_PUBLIC;
    if (!isPublic && options.allowSecretless) return client;
    if (!isPublic) throw oauthErrors.invalidClient('client authentication failed');
    if (!options.allowPublic)
      throw oauthErrors.unauthorizedClient('a public client may not use this grant type');
    return client;
  }
  const client = await lookup.authenticateClient(credentials.clientId, credentials.clientSecret);
  if (!client) throw oauthErrors.invalidClient('client authentication failed');
  return client;
}
