import {
  ACR_VALUES,
  AMR_VALUES,
  BACKCHANNEL_AUTHENTICATION_REQUEST_SIGNING_ALGS,
  CIBA_DELIVERY_MODES,
  CLIENT_ASSERTION_SIGNING_ALGS,
  CODE_CHALLENGE_METHODS,
  DISPLAY_VALUES,
  DPOP_SIGNING_ALGS,
  GRANT_TYPES,
  ID_TOKEN_CLAIMS,
  ID_TOKEN_SIGNING_ALGS,
  INTROSPECTION_ENDPOINT_AUTH_METHODS,
  PROMPT_VALUES,
  REQUEST_OBJECT_ENCRYPTION_ALGS,
  REQUEST_OBJECT_ENCRYPTION_ENCS,
  REQUEST_OBJECT_SIGNING_ALGS,
  RESPONSE_MODES,
  RESPONSE_TYPES,
  REVOCATION_ENDPOINT_AUTH_METHODS,
  SCOPES,
  SUBJECT_TYPES,
  TOKEN_ENDPOINT_AUTH_METHODS,
} from '@sesame/oauth';
import { type FastRoute, fastRouteHandler } from '@sesame/platform';
import type { Router } from 'express';
import { LOGOUT_PATH } from '../journeys/logout/routes';
import { PAR_PATH } from '../par/par-route';

export const DISCOVERY_PATH = '/.well-known/openid-configuration';

/**
 * OpenID Provider Metadata (OIDC Discovery 1.0 §3, CIBA Core §4) describing exactly what Sesame supports,
 * built from @sesame/oauth's lists: the same constants the checks accept (discovery.test.ts drives the checks
 * with every advertised value), so discovery cannot advertise what a check refuses. Members whose spec
 * default would claim more than Sesame does are stated explicitly (request_uri_parameter_supported defaults
 * to true). CIBA (/authorize_ciba, the ciba grant, poll and ping; no user_code) is listed, and so are the acr
 * values acr_values accepts (ts.svc.app_bound_cred is earned by /session-feedback, never requested, so it is
 * not listed); the ID token claims are every claim Sesame may put in a token. userinfo, revocation and
 * introspection are served by token (routed there like /token). Logout: RP-Initiated Logout at /logout
 * (journeys/logout/) and Back-Channel Logout with sid (ID tokens carry it); no front-channel logout.
 */
export function discoveryDocument(
  authUrl: string,
  opts: { requirePar?: boolean } = {},
): Record<string, unknown> {
  const base = authUrl.replace(/\/+$/, '');
  return {
    issuer: authUrl,
    authorization_endpoint: `${base}/authorize`,
    token_endpoint: `${base}/token`,
    jwks_uri: `${base}/jwks`,
    userinfo_endpoint: `${base}/userinfo`,
    revocation_endpoint: `${base}/revoke`,
    revocation_endpoint_auth_methods_supported: [...REVOCATION_ENDPOINT_AUTH_METHODS],
    introspection_endpoint: `${base}/introspect`,
    introspection_endpoint_auth_methods_supported: [...INTROSPECTION_ENDPOINT_AUTH_METHODS],
    response_types_supported: [...RESPONSE_TYPES],
    response_modes_supported: [...RESPONSE_MODES],
    grant_types_supported: [...GRANT_TYPES],
    subject_types_supported: [...SUBJECT_TYPES],
    code_challenge_methods_supported: [...CODE_CHALLENGE_METHODS],
    token_endpoint_auth_methods_supported: [...TOKEN_ENDPOINT_AUTH_METHODS],
    // private_key_jwt's algorithms (OIDC Discovery: required when private_key_jwt is listed).
    token_endpoint_auth_signing_alg_values_supported: [...CLIENT_ASSERTION_SIGNING_ALGS],
    revocation_endpoint_auth_signing_alg_values_supported: [...CLIENT_ASSERTION_SIGNING_ALGS],
    introspection_endpoint_auth_signing_alg_values_supported: [...CLIENT_ASSERTION_SIGNING_ALGS],
    // RFC 8705 3: access tokens of apps registered for it are bound to their TLS client certificate.
    tls_client_certificate_bound_access_tokens: true,
    // PAR (RFC 9126 §5): required for every client only when SESAME_REQUIRE_PAR says so; an application
    // may require it for itself (requirePushedAuthorizationRequests).
    pushed_authorization_request_endpoint: `${base}${PAR_PATH}`,
    require_pushed_authorization_requests: opts.requirePar === true,
    // DPoP (RFC 9449 §5.1): the proof algorithms @sesame/oauth's dpopVerifier accepts.
    dpop_signing_alg_values_supported: [...DPOP_SIGNING_ALGS],
    id_token_signing_alg_values_supported: [...ID_TOKEN_SIGNING_ALGS],
    request_object_encryption_alg_values_supported: [...REQUEST_OBJECT_ENCRYPTION_ALGS],
    request_object_encryption_enc_values_supported: [...REQUEST_OBJECT_ENCRYPTION_ENCS],
    request_object_signing_alg_values_supported: [...REQUEST_OBJECT_SIGNING_ALGS],
    request_parameter_supported: true,
    // request_uri only as minted by /par (RFC 9126); no fetching of client-hosted request objects.
    request_uri_parameter_supported: false,
    scopes_supported: [...SCOPES],
    claims_supported: [...ID_TOKEN_CLAIMS],
    acr_values_supported: [...ACR_VALUES],
    amr_values_supported: [...AMR_VALUES],
    claims_parameter_supported: true,
    display_values_supported: [...DISPLAY_VALUES],
    prompt_values_supported: [...PROMPT_VALUES],
    backchannel_authentication_endpoint: `${base}/authorize_ciba`,
    backchannel_token_delivery_modes_supported: [...CIBA_DELIVERY_MODES],
    backchannel_user_code_parameter_supported: false,
    // FAPI-CIBA: signed authentication requests (CIBA Core 7.1.1) are verified with the client's keys.
    backchannel_authentication_request_signing_alg_values_supported: [
      ...BACKCHANNEL_AUTHENTICATION_REQUEST_SIGNING_ALGS,
    ],
    // Every authorization response (code or error) to a redirect URI carries iss (RFC 9207).
    authorization_response_iss_parameter_supported: true,
    end_session_endpoint: `${base}${LOGOUT_PATH}`,
    backchannel_logout_supported: true,
    // Every logout token carries sid, and ID tokens of browser sign-ins carry the same sid.
    backchannel_logout_session_supported: true,
    frontchannel_logout_supported: false,
  };
}

export const discoveryHeaders = Object.freeze({
  'Content-Type': 'application/json',
  // Public and static for the life of the process; short so a changed deployment is seen soon.
  'Cache-Control': 'public, max-age=300',
});

/** GET {auth_url}/.well-known/openid-configuration, serialized once. */
export function discoveryRoute(authUrl: string, opts: { requirePar?: boolean } = {}): FastRoute {
  const response = {
    headers: discoveryHeaders,
    body: Buffer.from(JSON.stringify(discoveryDocument(authUrl, opts)), 'utf8'),
  };
  return { path: DISCOVERY_PATH, respond: () => response };
}

/** Mounts discovery on auth's router and returns it as a fast route for the host. */
export function mountDiscovery(
  routes: Router,
  config: { SESAME_AUTH_URL: string; SESAME_REQUIRE_PAR?: boolean },
): FastRoute {
  const route = discoveryRoute(config.SESAME_AUTH_URL, { requirePar: config.SESAME_REQUIRE_PAR });
  routes.get(route.path, fastRouteHandler(route));
  return route;
}
