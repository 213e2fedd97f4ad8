import { type CIBA_DELIVERY_MODES, type ClientAuthMethod, TOKEN_ENDPOINT_AUTH_METHODS } from '@sesame/oauth';

/** The directory's records. Secrets are never stored: only their sha256 (see @sesame/platform ids). */

export const clientTypes = ['confidential', 'public'] as const;
export type ClientType = (typeof clientTypes)[number];

/** How a CIBA client learns the outcome: @sesame/oauth's CIBA_DELIVERY_MODES. */
export type CibaMode = (typeof CIBA_DELIVERY_MODES)[number];

export interface CibaSettings {
  mode: CibaMode;
  /** Required in ping mode: where ciba-notifier POSTs `{auth_req_id}`. */
  notificationEndpoint?: string;
  /** true: pending CIBA answers per CIBA Core §11 (HTTP 400) instead of the spec's HTTP 200. */
  strictErrors: boolean;
  /** Lifetime of this app's CIBA requests and links in seconds; absent: the platform default (30 minutes). */
  expiresIn?: number;
}

/** Refresh tokens of an app (token's grant_type=refresh_token for code grants with offline_access). */
export interface RefreshTokenSettings {
  enabled: boolean;
  /** Seconds a refresh token family lives from the sign-in, however often it is used. */
  absoluteLifetimeS: number;
  /** Seconds a family lives unused; each use starts it again. Never more than absoluteLifetimeS. */
  idleLifetimeS: number;
}

/** The spec's businessUnit. */
export interface Tenant {
  tenantId: string;
  name: string;
  createdAt: number;
  updatedAt: number;
  /**
   * The location rule: ISO 3166-1 alpha-2 codes (upper case, sorted) of countries no sign-in may come from.
   * Absent or empty: no rule.
   */
  blockedCountries?: string[];
}

/** How an application authenticates as a client; absent: its secret (or none for a public client). */
export type ClientAuthMethodSetting = Exclude<ClientAuthMethod, 'none'>;
/**
 * The settings of tokenEndpointAuthMethod: @sesame/oauth's TOKEN_ENDPOINT_AUTH_METHODS (what /token and
 * discovery take) but `none`, which an app gets from its client type (public), not from this setting.
 */
export const clientAuthMethods = TOKEN_ENDPOINT_AUTH_METHODS.filter(
  (method): method is ClientAuthMethodSetting => method !== 'none',
) as [ClientAuthMethodSetting, ...ClientAuthMethodSetting[]];

/** JAR (RFC 9101): the algs an application may require of its request objects (@sesame/oauth's list). */
export const requestObjectSigningAlgs = ['RS256', 'PS256', 'ES256'] as const;
export type RequestObjectSigningAlgSetting = (typeof requestObjectSigningAlgs)[number];

/** A public JWK (RFC 7517) as registered; private members are refused by the admin API. */
export type PublicJwk = Record<string, unknown> & { kty: string };

/** An application and its OIDC client (one client per application). */
export interface Application {
  tenantId: string;
  appId: string;
  name: string;
  clientId: string;
  clientType: ClientType;
  /** sha256 of the client secret; absent for public (PKCE-only) clients. */
  clientSecretHash?: string;
  /**
   * The client secret sealed under the server's key ring (secrets/client-secret-vault.ts), for checking
   * signatures keyed by it (interactive init). Written with the hash; absent for public clients and for
   * confidential clients created before it existed (rotating their secret adds it). Never in an API view.
   */
  clientSecretSealed?: string;
  /** Matched exactly (no prefix or wildcard matching). */
  redirectUris: string[];
  allowedScopes: string[];
  ciba: CibaSettings;
  /** svc_aux_link must start with this prefix; https:// and ending with /. */
  auxLinkPrefix?: string;
  /** Where registration links (send-activation) land. */
  registrationRedirectUri?: string;
  /** Lifetime of this app's registration links in seconds (spec 8's preview setting); absent: 30 minutes. */
  registrationLinkExpiresIn?: number;
  /** Absent: refresh tokens are off (offline_access is never granted). */
  refreshTokens?: RefreshTokenSettings;
  /**
   * Where RP-Initiated Logout may send the browser afterwards (post_logout_redirect_uri): matched exactly.
   * Absent or empty: the hosted "You are signed out" page only.
   */
  postLogoutRedirectUris?: string[];
  /** Back-Channel Logout 1.0: where ciba-notifier POSTs a logout_token when a session of this app ends. */
  backchannelLogoutUri?: string;
  /** The app needs `sid` in its logout tokens (backchannel_logout_session_required); Sesame always sends it. */
  backchannelLogoutSessionRequired?: boolean;
  /**
   * A first-party client: the Sesame Console of the system tenant (directory/system-tenant.ts sets it). Its
   * sign-in shows no consent page. No admin API request sets it, and only a system-tenant app counts.
   */
  firstParty?: boolean;
  /**
   * private_key_jwt (RFC 7523): the app proves itself with a JWT signed by one of its keys, and its secret (kept
   * for interactive init's signature) no longer authenticates it. Absent: client_secret_basic/post.
   */
  tokenEndpointAuthMethod?: ClientAuthMethodSetting;
  /** The app's public keys by value (a JWK Set); at most one of jwks and jwksUri. */
  jwks?: { keys: PublicJwk[] };
  /** Where the app publishes its JWK Set (https; fetched, cached and refetched on an unknown kid). */
  jwksUri?: string;
  /** PAR (RFC 9126): /authorize refuses this app's requests unless pushed to /par first. */
  requirePushedAuthorizationRequests?: boolean;
  /** JAR: request objects must be signed with this alg by one of the app's keys (jwks / jwksUri). */
  requestObjectSigningAlg?: RequestObjectSigningAlgSetting;
  /** DPoP (RFC 9449): /token requires a DPoP proof from this app (dpop_bound_access_tokens). */
  dpopBoundAccessTokens?: boolean;
  /** tls_client_auth (RFC 8705 2.1): the subject DN (RFC 4514) of the certificate the app authenticates with. */
  tlsClientAuthSubjectDn?: string;
  /** RFC 8705 3: the app's access tokens are bound to the certificate it presented at /token (cnf.x5t#S256). */
  tlsClientCertificateBoundAccessTokens?: boolean;
  /** OIDC Registration: the alg of this app's ID tokens (and logout tokens); absent: RS256. */
  idTokenSignedResponseAlg?: IdTokenSignedResponseAlgSetting;
  /**
   * FAPI-CIBA (CIBA Core 7.1.1): /authorize_ciba takes only signed authentication requests (`request`) signed
   * with this alg by one of the app's keys (jwks / jwksUri). Absent: signed and plain requests are taken.
   */
  backchannelAuthenticationRequestSigningAlg?: RequestObjectSigningAlgSetting;
  /** The security profile enforced on the app as a whole; absent: none. See security-profile.ts. */
  securityProfile?: SecurityProfileSetting;
  createdAt: number;
  updatedAt: number;
}

/** The algs an application's ID tokens may be signed with (@sesame/oauth's ID_TOKEN_SIGNING_ALGS). */
export const idTokenSignedResponseAlgs = ['RS256', 'PS256', 'ES256'] as const;
export type IdTokenSignedResponseAlgSetting = (typeof idTokenSignedResponseAlgs)[number];

/** The security profiles an application may be held to: `fapi2`, the FAPI 2.0 Security Profile. */
export const securityProfiles = ['fapi2'] as const;
export type SecurityProfileSetting = (typeof securityProfiles)[number];

/** The settings an admin may change on an application (everything but identity and secret). */
export type ApplicationSettings = Pick<
  Application,
  | 'name'
  | 'redirectUris'
  | 'allowedScopes'
  | 'ciba'
  | 'auxLinkPrefix'
  | 'registrationRedirectUri'
  | 'registrationLinkExpiresIn'
  | 'refreshTokens'
  | 'postLogoutRedirectUris'
  | 'backchannelLogoutUri'
  | 'backchannelLogoutSessionRequired'
  | 'tokenEndpointAuthMethod'
  | 'jwks'
  | 'jwksUri'
  | 'requirePushedAuthorizationRequests'
  | 'requestObjectSigningAlg'
  | 'dpopBoundAccessTokens'
  | 'tlsClientAuthSubjectDn'
  | 'tlsClientCertificateBoundAccessTokens'
  | 'idTokenSignedResponseAlg'
  | 'backchannelAuthenticationRequestSigningAlg'
  | 'securityProfile'
>;

/** A change to a stored application: its settings, or (the system only) the first-party flag. */
export type ApplicationPatch = Partial<ApplicationSettings> &
  Pick<Application, 'firstParty'> & { updatedAt: number };

/** Management API credentials of a tenant (client_credentials at /token with scope svc_admin_api). */
export interface ApiCredentials {
  tenantId: string;
  credentialsId: string;
  secretHash: string;
  createdAt: number;
  revokedAt?: number;
}

export interface Admin {
  email: string;
  createdAt: number;
  lastSeenAt: number;
}
