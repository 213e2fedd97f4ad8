import { OAuthError } from '@sesame/platform';
import { directory } from '@sesame/proto';
import type { ClientAssertionVerifier } from './client-assertion';
import { type PresentedCertificate, isMtlsAuthMethod, verifyClientCertificate } from './client-certificate';
import type { ClientCredentials, SecretCredentials } from './client-credentials';
import type { ClientJwks } from './client-jwks';
import { oauthErrors } from './errors';
import { isFapi2 } from './security-profile';

const FAPI2_AUTH_REFUSED =
  'the FAPI 2.0 profile accepts only private_key_jwt or mutual TLS client authentication';

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
  try {
    // The callback inline: a named arrow would also be given its name on every request under tsx (npm start).
    const result = await authenticate(async () => {
      attempt = await failures.reserve(clientId, clientIp);
    });
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

/** What client authentication reads of a Directory client. */
export type AuthenticatedClient = Pick<directory.Client, 'type'> &
  Partial<
    Pick<
      directory.Client,
      'tokenEndpointAuthMethod' | 'jwks' | 'jwksUri' | 'tlsClientAuthSubjectDn' | 'securityProfile'
    >
  >;

/** The Directory as client authentication needs it: null or undefined for an unknown client or wrong secret. */
export interface ClientLookup<C extends AuthenticatedClient> {
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
  /** Checks private_key_jwt assertions; without it, an assertion is invalid_client. */
  assertions?: ClientAssertionVerifier;
  /** The URL of the endpoint called, accepted as the assertion's aud besides the issuer and /token. */
  endpointUrl?: string;
  /**
   * Mutual TLS (RFC 8705): the certificate this request came with (client-certificate.ts reads it from the
   * socket or the trusted header, only when a client registered for mutual TLS asks) and the client keys self_signed_tls_client_auth matches it against. Without
   * it, a client registered for mutual TLS cannot authenticate here.
   */
  mtls?: { certificate: () => PresentedCertificate | undefined; keys: ClientJwks };
}

/** The client is registered for private_key_jwt: it may authenticate no other way. */
export const usesPrivateKeyJwt = (client: Partial<Pick<directory.Client, 'tokenEndpointAuthMethod'>>) =>
  client.tokenEndpointAuthMethod === 'private_key_jwt';

/**
 * Authenticates an application (OIDC client) through the Directory. A confidential client must present
 * its secret, or its signed assertion when registered for private_key_jwt (and then nothing else: the
 * Directory refuses its secret too); a public client presents none and may only use what allows it. Unknown
 * client, wrong secret and a confidential client without its secret all get the same invalid_client: which
 * client_ids exist is not for callers to learn.
 */
export async function authenticateClient<C extends AuthenticatedClient>(
  lookup: Pick<ClientLookup<C>, 'authenticateClient'>,
  credentials: SecretCredentials,
  options: AuthenticateClientOptions,
): Promise<C>;
export async function authenticateClient<C extends AuthenticatedClient>(
  lookup: ClientLookup<C>,
  credentials: ClientCredentials,
  options: AuthenticateClientOptions,
): Promise<C>;
export async function authenticateClient<C extends AuthenticatedClient>(
  lookup: Pick<ClientLookup<C>, 'authenticateClient'> & Partial<ClientLookup<C>>,
  credentials: ClientCredentials,
  options: AuthenticateClientOptions,
): Promise<C> {
  if (credentials.method === 'private_key_jwt') {
    // The overloads make a lookup without getClient take secret credentials only.
    const client = await (lookup as ClientLookup<C>).getClient(credentials.clientId);
    if (!client) throw oauthErrors.invalidClient('client authentication failed');
    if (!usesPrivateKeyJwt(client) || !options.assertions) {
      throw oauthErrors.invalidClient('the client is not registered for private_key_jwt');
    }
    const keyed = { clientId: credentials.clientId, jwks: client.jwks ?? '', jwksUri: client.jwksUri ?? '' };
    await options.assertions.verify(keyed, credentials.assertion, options.endpointUrl, {
      issuerOnly: isFapi2(client),
      decoded: credentials.decoded,
    });
    return client;
  }
  if (credentials.method === 'none') {
    const client = await (lookup as ClientLookup<C>).getClient(credentials.clientId);
    if (!client) throw oauthErrors.invalidClient('client authentication failed');
    if (isMtlsAuthMethod(client.tokenEndpointAuthMethod)) {
      const mtls = options.mtls;
      if (!mtls) throw oauthErrors.invalidClient('mutual TLS client authentication is not offered here');
      const keyed = {
        clientId: credentials.clientId,
        jwks: client.jwks ?? '',
        jwksUri: client.jwksUri ?? '',
      };
      await verifyClientCertificate({ clientId: credentials.clientId, ...client }, mtls.certificate(), () =>
        mtls.keys.keysOf(keyed),
      );
      return client;
    }
    const isPublic = client.type === directory.ClientType.CLIENT_TYPE_PUBLIC;
    if (usesPrivateKeyJwt(client)) throw oauthErrors.invalidClient('client authentication failed');
    // FAPI 2.0: a key or a certificate, never a client_id alone (mgmt registers no other method for it).
    if (isFapi2(client)) throw oauthErrors.invalidClient(FAPI2_AUTH_REFUSED);
    if (!isPublic && options.allowSecretless) return client;
    if (!isPublic) throw oauthErrors.invalidClient('client authentication failed');
    if (!options.allowPublic)
      throw oauthErrors.unauthorizedClient('a public client may not use this grant type');
    return client;
  }
  const client = await lookup.authenticateClient(credentials.clientId, credentials.clientSecret);
  // The Directory already refuses the secret of a private_key_jwt client; checked again so no cache or
  // older Directory can let one through.
  // Likewise a client registered for mutual TLS: its certificate is its only proof.
  if (!client || usesPrivateKeyJwt(client) || isMtlsAuthMethod(client.tokenEndpointAuthMethod))
    throw oauthErrors.invalidClient('client authentication failed');
  // FAPI 2.0 §5.3.2.1: client_secret_basic / client_secret_post are not among its methods.
  if (isFapi2(client)) throw oauthErrors.invalidClient(FAPI2_AUTH_REFUSED);
  return client;
}
