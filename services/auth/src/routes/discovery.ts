import { type FastRoute, fastRouteHandler } from '@sesame/platform';
import type { Router } from 'express';

export const DISCOVERY_PATH = '/.well-known/openid-configuration';

/** The request-object JWE algorithms the jwks service decrypts (services/jwks/src/keys/request-object.ts). */
const requestObjectEncryption = {
  alg: ['RSA-OAEP-256'],
  enc: ['A128CBC-HS256', 'A256CBC-HS512', 'A128GCM', 'A256GCM'],
};

/** Every ID token claim of spec 2.2 (always present, then conditional). */
const idTokenClaims = [
  'iss',
  'sub',
  'aud',
  'exp',
  'iat',
  'auth_time',
  'nonce',
  'acr',
  'amr',
  'svc_info',
  'svc_psd2_transaction',
  'svc_approval',
  'svc_alias',
  'email',
  'email_verified',
  'email_last_update',
  'phone_number',
  'phone_number_verified',
  'phone_number_last_update',
  'svc_network_info',
];

/**
 * OpenID Provider Metadata (OIDC Discovery 1.0 §3, CIBA Core §4) describing exactly what Sesame supports.
 * Members whose spec default would claim more than Sesame does are stated explicitly
 * (request_uri_parameter_supported defaults to true). Only what works is listed: CIBA (/authorize_ciba, the
 * ciba grant, poll and ping; no user_code) is, and so are the email and phone acr values (the two acr_values
 * accepts; ts.svc.app_bound_cred is earned by /session-feedback, never requested, so it is not listed); the ID
 * token claims are every claim Sesame may put in a token.
 */
export function discoveryDocument(authUrl: string): Record<string, unknown> {
  const base = authUrl.replace(/\/+$/, '');
  return {
    issuer: authUrl,
    authorization_endpoint: `${base}/authorize`,
    token_endpoint: `${base}/token`,
    jwks_uri: `${base}/jwks`,
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'client_credentials', 'urn:openid:params:grant-type:ciba'],
    subject_types_supported: ['public'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    id_token_signing_alg_values_supported: ['RS256'],
    request_object_encryption_alg_values_supported: requestObjectEncryption.alg,
    request_object_encryption_enc_values_supported: requestObjectEncryption.enc,
    request_parameter_supported: true,
    request_uri_parameter_supported: false,
    scopes_supported: ['openid', 'email', 'phone', 'svc_network_info'],
    claims_supported: idTokenClaims,
    acr_values_supported: ['ts.svc.iac.email', 'ts.svc.iac.phone_number'],
    amr_values_supported: ['ts.svc.mfca', 'ts.svc.email_otp', 'ts.svc.email_magic_link'],
    claims_parameter_supported: true,
    display_values_supported: ['page'],
    prompt_values_supported: ['login'],
    backchannel_authentication_endpoint: `${base}/authorize_ciba`,
    backchannel_token_delivery_modes_supported: ['poll', 'ping'],
    backchannel_user_code_parameter_supported: false,
  };
}

export const discoveryHeaders = Object.freeze({
  'Content-Type': 'application/json',
  // Public and static for the life of the process; short so a changed deployment is seen soon.
  'Cache-Control': 'public, max-age=300',
});

/** GET {auth_url}/.well-known/openid-configuration, serialized once. */
export function discoveryRoute(authUrl: string): FastRoute {
  const response = {
    headers: discoveryHeaders,
    body: Buffer.from(JSON.stringify(discoveryDocument(authUrl)), 'utf8'),
  };
  return { path: DISCOVERY_PATH, respond: () => response };
}

/** Mounts discovery on auth's router and returns it as a fast route for the host. */
export function mountDiscovery(routes: Router, config: { SESAME_AUTH_URL: string }): FastRoute {
  const route = discoveryRoute(config.SESAME_AUTH_URL);
  routes.get(route.path, fastRouteHandler(route));
  return route;
}
