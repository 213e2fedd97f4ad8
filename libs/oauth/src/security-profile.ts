import { isMtlsAuthMethod } from './client-certificate';

/**
 * The FAPI 2.0 Security Profile (OpenID FAPI 2.0 Security Profile, final), as an application's
 * `security_profile`. Each service enforces its part: mgmt the registration (confidential, private_key_jwt
 * or mutual TLS, https redirect URIs), auth PAR, PKCE S256 and TLS, token sender-constrained tokens, the code
 * life, no refresh token rotation, and client authentication by key or certificate only.
 */
export const FAPI2_PROFILE = 'fapi2';

/** FAPI 2.0 §5.3.2.1: an authorization code is good at most 60 seconds. */
export const FAPI2_MAX_CODE_LIFETIME_S = 60;

/** FAPI 2.0 §5.3.2.1 (client authentication): the methods a FAPI 2.0 client may use. */
export const FAPI2_CLIENT_AUTH_METHODS = [
  'private_key_jwt',
  'tls_client_auth',
  'self_signed_tls_client_auth',
] as const;

/** Whether the client is held to the FAPI 2.0 Security Profile. */
export const isFapi2 = (client: { securityProfile?: string }): boolean =>
  client.securityProfile === FAPI2_PROFILE;

/** Whether a registered token_endpoint_auth_method is one FAPI 2.0 allows (a key or a certificate). */
export const isFapi2ClientAuthMethod = (method: string | undefined): boolean =>
  method === 'private_key_jwt' || isMtlsAuthMethod(method);

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * FAPI 2.0 §5.3.2.2 and §5.2 (TLS): http only on a loopback address (a native app's redirect, a developer's
 * machine); anything else must be https. True when `url` may be used by a FAPI 2.0 client.
 */
export function isTlsOrLoopback(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol === 'https:') return true;
  return parsed.protocol === 'http:' && LOOPBACK_HOSTS.has(parsed.hostname);
}
