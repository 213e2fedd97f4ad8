import type { grants } from '@sesame/proto';
import type { RequestedClaims } from './requested-claims';

/** What a code stands for: an authenticated grant waiting to be redeemed at /token. */
export interface CodeGrant {
  tenantId: string;
  appId: string;
  clientId: string;
  redirectUri: string;
  scope: string;
  /** BASE64URL(SHA256(code_verifier)); empty when the authorization request carried no PKCE challenge. */
  codeChallenge: string;
  flowId: string;
  claims: grants.AuthenticatedClaims;
  /** The standard claims the claims parameter asked for (OIDC Core 5.5); absent when none. */
  requestedClaims?: RequestedClaims;
  /** The login the code came from (auth's /session-feedback confirms it through the access token). */
  login?: grants.LoginRef;
  /** DPoP (RFC 9449 §10): the key thumbprint /authorize or /par bound the code to (dpop_jkt). */
  dpopJkt?: string;
  /** When IssueCode stored it (epoch ms): a FAPI 2.0 app's code is good 60 s at most, whatever the TTL. */
  issuedAt?: number;
}

/** What an opaque access token is bound to. */
export interface AccessTokenGrant {
  /** `user`: issued from a code or CIBA grant; `api`: management bearer token from client_credentials. */
  kind: 'user' | 'api';
  tenantId: string;
  /** The OAuth client: the application's client_id, or the API credentials id for `api` tokens. */
  clientId: string;
  credentialsId?: string;
  appId?: string;
  sub?: string;
  /** The login of a `user` token (code or CIBA grant). */
  login?: grants.LoginRef;
  scope: string;
  /** Epoch seconds. */
  expiresAt: number;
  /** Epoch ms a `user` token was issued (ended by a later Grants.RevokeUserGrants of its user). */
  issuedAtMs?: number;
  /** A `user` token's UserInfo answer (OIDC Core 5.3): sub and the claims of its scope, at issue. */
  userinfo?: UserinfoClaims;
  /** DPoP (RFC 9449): the thumbprint of the key the token is bound to (cnf.jkt); absent: a Bearer token. */
  jkt?: string;
  /** RFC 8705 3: x5t#S256 of the client certificate this token is bound to (cnf); absent: a bearer token. */
  certificateThumbprint?: string;
}

/** What /userinfo answers for a user token: the snapshot of the grant's claims its scope allows. */
export interface UserinfoClaims {
  sub: string;
  email?: string;
  email_verified?: boolean;
  phone_number?: string;
  phone_number_verified?: boolean;
}

/**
 * A refresh token family (RFC 9700 4.14): started by a code grant with offline_access for an app allowing
 * refresh tokens; one current token at a time, rotated on each use. Times are epoch ms.
 */
export interface RefreshFamily {
  id: string;
  tenantId: string;
  appId: string;
  clientId: string;
  sub: string;
  /** The scope granted at sign-in; a refresh may ask for less, never more. */
  scope: string;
  /** The claim snapshot of the sign-in: ID tokens and UserInfo of refreshed grants are built from it. */
  claims: grants.AuthenticatedClaims;
  /** The claims parameter's standard claims of the sign-in: refreshed ID tokens and UserInfo answer them too. */
  requestedClaims?: RequestedClaims;
  login?: grants.LoginRef;
  /** DPoP: a public client's family is bound to the key of its first proof (RFC 9449 §5). */
  jkt?: string;
  /** sha256 of the one token of the family that may be used now. */
  current: string;
  createdAt: number;
  lastUsedAt: number;
  absoluteExpiresAt: number;
  idleLifetimeMs: number;
  /** Access tokens issued from the family and not yet expired: revoked with it. */
  accessTokens: Array<{ hash: string; expiresAt: number }>;
}

/** A CIBA request started by auth; its progress lives in separate keys (see BackchannelRequests). */
export interface BackchannelRequest {
  tenantId: string;
  appId: string;
  clientId: string;
  scope: string;
  flowId: string;
  clientNotificationToken: string;
  /** Epoch ms after which the auth_req_id answers expired_token. */
  expiresAt: number;
  intervalS: number;
}

export type BackchannelStatus = 'link_sent' | 'link_opened';

export type BackchannelOutcome =
  | { kind: 'completed'; claims: grants.AuthenticatedClaims; login?: grants.LoginRef }
  | { kind: 'denied'; reason: string };
