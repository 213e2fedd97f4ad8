/**
 * The values Sesame supports, each list declared once: the checks accept exactly these and discovery
 * (services/auth/src/routes/discovery.ts) advertises exactly these.
 */

/**
 * The scopes of spec 4.2 that decide which claims a token carries; an app's allowedScopes lists some of
 * these (openid included), and a request for one the app does not allow is unauthorized_client.
 */
export const CLAIM_SCOPES = ['openid', 'email', 'phone', 'svc_network_info'] as const;
export type ClaimScope = (typeof CLAIM_SCOPES)[number];

/**
 * OIDC Core 5.4: accepted for standard RPs and granted with the claims Sesame knows of it, which today are
 * none (Sesame keeps no name, picture or birthdate): it is in the granted scope, and no claim is invented.
 */
export const PROFILE_SCOPE = 'profile';
/** OIDC Core 11: a refresh token, granted only when the app allows refresh tokens (else dropped). */
export const OFFLINE_ACCESS_SCOPE = 'offline_access';

/**
 * Every scope Sesame understands (discovery's scopes_supported). Any other value in a request is ignored and
 * not granted (OIDC Core 3.1.2.1, RFC 6749 3.3); openid is required.
 */
export const SCOPES = [...CLAIM_SCOPES, PROFILE_SCOPE, OFFLINE_ACCESS_SCOPE] as const;
export type Scope = (typeof SCOPES)[number];

/** The scope of a management bearer token, from client_credentials (spec 5.2). */
export const ADMIN_API_SCOPE = 'svc_admin_api';

/** acr_values: verify the email address in this flow / verify a mobile number by an SMS code too (spec 4.2). */
export const EMAIL_ACR = 'ts.svc.iac.email';
export const PHONE_ACR = 'ts.svc.iac.phone_number';
/** The acr values a request may ask for (ts.svc.app_bound_cred is earned by /session-feedback, never asked). */
export const ACR_VALUES = [EMAIL_ACR, PHONE_ACR] as const;
/** Earned by session feedback; appears in ID tokens, never requested. */
export const APP_BOUND_CRED_ACR = 'ts.svc.app_bound_cred';

/** amr of each way a person proves who they are (spec 2.2). */
export const AMR = {
  fido2: 'ts.svc.mfca',
  email_otp: 'ts.svc.email_otp',
  email_magic_link: 'ts.svc.email_magic_link',
} as const;
export const AMR_VALUES = [AMR.fido2, AMR.email_otp, AMR.email_magic_link] as const;

/**
 * Every ID token claim of spec 2.2 (always present, then conditional), then `sid`, which a browser sign-in's
 * ID token carries for Back-Channel Logout 1.0 (§2.1, backchannel_logout_session_supported); discovery's
 * claims_supported and the claims parameter's answerable names both come from this list.
 */
export const ID_TOKEN_CLAIMS = [
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
  'sid',
] as const;

export const AUTHORIZATION_CODE_GRANT_TYPE = 'authorization_code';
export const CLIENT_CREDENTIALS_GRANT_TYPE = 'client_credentials';
export const CIBA_GRANT_TYPE = 'urn:openid:params:grant-type:ciba';
export const REFRESH_TOKEN_GRANT_TYPE = 'refresh_token';
/** The grant types /token serves. */
export const GRANT_TYPES = [
  AUTHORIZATION_CODE_GRANT_TYPE,
  CLIENT_CREDENTIALS_GRANT_TYPE,
  CIBA_GRANT_TYPE,
  REFRESH_TOKEN_GRANT_TYPE,
] as const;
export type GrantType = (typeof GRANT_TYPES)[number];

/** Authorization Code flow only, its result in the query (spec 4.2). */
export const RESPONSE_TYPES = ['code'] as const;
export const RESPONSE_MODES = ['query'] as const;

/**
 * prompt: every value of OIDC Core 3.1.2.1 (none alone, the others in any combination); display: every Core
 * value is accepted and all render the same page (Core: an unsupported display must not be an error).
 */
export const PROMPT_VALUES = ['none', 'login', 'consent', 'select_account'] as const;
export type PromptValue = (typeof PROMPT_VALUES)[number];
export const DISPLAY_VALUES = ['page', 'popup', 'touch', 'wap'] as const;

/** PKCE: S256 only (spec 8). */
export const CODE_CHALLENGE_METHODS = ['S256'] as const;

/**
 * How a client authenticates at /token; /par takes the same, /authorize_ciba the secret and private_key_jwt
 * (mutual TLS there is not done yet). private_key_jwt (RFC 7523, OIDC Core 9) and the mutual-TLS methods (RFC 8705:
 * client_id and the TLS client certificate, client-certificate.ts) are open to applications registered for
 * them, and they may use nothing else.
 */
export const TOKEN_ENDPOINT_AUTH_METHODS = [
  'client_secret_basic',
  'client_secret_post',
  'private_key_jwt',
  'tls_client_auth',
  'self_signed_tls_client_auth',
  'none',
] as const;
export type ClientAuthMethod = (typeof TOKEN_ENDPOINT_AUTH_METHODS)[number];
/** /revoke: as /token; a public client (client_id alone) may revoke its own tokens (RFC 7009 2.1). */
export const REVOCATION_ENDPOINT_AUTH_METHODS = TOKEN_ENDPOINT_AUTH_METHODS;
/** /introspect: a client with a secret or a key (an app, or API credentials for their tenant's tokens). */
export const INTROSPECTION_ENDPOINT_AUTH_METHODS = [
  'client_secret_basic',
  'client_secret_post',
  'private_key_jwt',
  'tls_client_auth',
  'self_signed_tls_client_auth',
] as const;

/** private_key_jwt: the algorithms a client_assertion may be signed with (never none or HS*). */
export const CLIENT_ASSERTION_SIGNING_ALGS = ['RS256', 'PS256', 'ES256'] as const;
/** RFC 7521 §4.2: the one client_assertion_type Sesame reads. */
/** DPoP proofs (RFC 9449): the asymmetric algorithms accepted (dpop_signing_alg_values_supported). */
export const DPOP_SIGNING_ALGS = ['ES256', 'PS256', 'RS256', 'EdDSA'] as const;

export const JWT_BEARER_ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
/** RFC 9126 §2.2: the prefix of a request_uri minted by /par. */
export const PAR_REQUEST_URI_PREFIX = 'urn:ietf:params:oauth:request_uri:';

/** How a CIBA client learns the outcome (spec 4.3; no push). */
export const CIBA_DELIVERY_MODES = ['poll', 'ping'] as const;

export const SUBJECT_TYPES = ['public'] as const;
/** ID token (and back-channel logout token) algs, per application (id_token_signed_response_alg); RS256 is the default. */
export const ID_TOKEN_SIGNING_ALGS = ['RS256', 'PS256', 'ES256'] as const;
export type IdTokenSigningAlg = (typeof ID_TOKEN_SIGNING_ALGS)[number];

/**
 * JAR (RFC 9101): the algorithms a signed request object may use, verified with the client's registered keys
 * (the private_key_jwt ones); an application may require one of them (request_object_signing_alg).
 */
export const REQUEST_OBJECT_SIGNED_ALGS = ['RS256', 'PS256', 'ES256'] as const;
export type RequestObjectSignedAlg = (typeof REQUEST_OBJECT_SIGNED_ALGS)[number];
/**
 * FAPI-CIBA: the algs of signed authentication requests at /authorize_ciba (CIBA Core 7.1.1), discovery's
 * backchannel_authentication_request_signing_alg_values_supported.
 */
export const BACKCHANNEL_AUTHENTICATION_REQUEST_SIGNING_ALGS = REQUEST_OBJECT_SIGNED_ALGS;
/**
 * Request objects as discovery lists them: signed ones, and unsecured ones (alg none, OIDC Core 6.1) whose
 * members have the trust of query parameters, as an unsigned JWE's do.
 */
export const REQUEST_OBJECT_SIGNING_ALGS = [...REQUEST_OBJECT_SIGNED_ALGS, 'none'] as const;

/** The request-object JWE algorithms the jwks service decrypts (spec 2.3). */
export const REQUEST_OBJECT_ENCRYPTION_ALGS = ['RSA-OAEP-256'] as const;
export const REQUEST_OBJECT_ENCRYPTION_ENCS = [
  'A128CBC-HS256',
  'A256CBC-HS512',
  'A128GCM',
  'A256GCM',
] as const;

/** RFC 7009 2.1 / RFC 7662 2.1: the token_type_hint values /revoke and /introspect understand. */
export const TOKEN_TYPE_HINTS = ['access_token', 'refresh_token'] as const;

/** Claims the UserInfo endpoint may return (OIDC Core 5.3), each only with its scope. */
export const USERINFO_CLAIMS = [
  'sub',
  'email',
  'email_verified',
  'phone_number',
  'phone_number_verified',
  'svc_network_info',
  'sid',
] as const;
