import { oauthErrors } from '@sesame/oauth';
import type { grants } from '@sesame/proto';
import type { TokenDeps } from '../deps';
import { buildIdTokenClaims } from '../id-token/claims';
import { signIdToken } from '../id-token/sign-id-token';
import { type IdTokenAlg, isIdTokenAlg } from '../keys/key-ring';
import type { RequestedClaims } from './requested-claims';
import { userinfoClaims } from './userinfo-claims';

/** The token response of spec 2.1. */
export interface TokenResponse {
  access_token: string;
  /** DPoP when the access token is bound to the key of the request's DPoP proof (RFC 9449 §5). */
  token_type: 'Bearer' | 'DPoP';
  expires_in: number;
  id_token?: string;
  refresh_token?: string;
  scope: string;
}

export interface UserGrant {
  tenantId: string;
  appId: string;
  clientId: string;
  scope: string;
  claims: grants.AuthenticatedClaims;
  /** The standard claims the claims parameter asked for (code grants and their refresh families). */
  requestedClaims?: RequestedClaims;
  login?: grants.LoginRef;
  /** The JWK thumbprint of the /token request's DPoP proof: the access token is bound to it (cnf.jkt). */
  jkt?: string;
  /** RFC 8705 3: x5t#S256 of the client certificate the access token is bound to. */
  certificateThumbprint?: string;
  /** The app's id_token_signed_response_alg (directory Client field 22); empty or absent: RS256. */
  idTokenAlg?: string;
}

/**
 * The alg of an app's ID tokens. An alg the management API would never have stored is a server fault, not
 * a reason to fall back to another alg: the app would get a token it refuses.
 */
export function idTokenAlgOf(configured: string | undefined): IdTokenAlg {
  if (!configured) return 'RS256';
  if (isIdTokenAlg(configured)) return configured;
  throw new Error(`unsupported id_token_signed_response_alg ${configured}`);
}

/**
 * Access token + ID token for an end-user grant (code or CIBA). The ID token is signed first, so a signing
 * failure leaves no access token behind.
 */
export async function issueUserTokens(
  deps: TokenDeps,
  grant: UserGrant,
): Promise<{ response: TokenResponse; accessTokenHash: string; accessTokenExpiresAtMs: number }> {
  const { config, clock } = deps;
  const nowMs = clock.now();
  const alg = idTokenAlgOf(grant.idTokenAlg);
  if (!deps.keyRing.has(alg)) throw oauthErrors.temporarilyUnavailable(`no ${alg} signing key yet; retry`, 1);
  const idToken = await signIdToken(
    deps.keyRing,
    buildIdTokenClaims({
      issuer: config.SESAME_AUTH_URL,
      clientId: grant.clientId,
      scope: grant.scope,
      claims: grant.claims,
      ...(grant.requestedClaims ? { requested: grant.requestedClaims } : {}),
      nowMs,
      ttlS: config.SESAME_ID_TOKEN_TTL_S,
    }),
    alg,
  );
  const ttlS = config.SESAME_ACCESS_TOKEN_TTL_S;
  const minted = await deps.accessTokens.mint(
    {
      kind: 'user',
      tenantId: grant.tenantId,
      appId: grant.appId,
      clientId: grant.clientId,
      sub: grant.claims.sub,
      ...(grant.login ? { login: grant.login } : {}),
      scope: grant.scope,
      expiresAt: Math.floor(nowMs / 1000) + ttlS,
      issuedAtMs: nowMs,
      userinfo: userinfoClaims(grant.scope, grant.claims, grant.requestedClaims),
      ...(grant.jkt ? { jkt: grant.jkt } : {}),
      ...(grant.certificateThumbprint ? { certificateThumbprint: grant.certificateThumbprint } : {}),
    },
    ttlS * 1000,
  );
  return {
    response: {
      access_token: minted.token,
      token_type: grant.jkt ? 'DPoP' : 'Bearer',
      expires_in: ttlS,
      id_token: idToken,
      scope: grant.scope,
    },
    accessTokenHash: minted.hash,
    accessTokenExpiresAtMs: (Math.floor(nowMs / 1000) + ttlS) * 1000,
  };
}

/** Management bearer token for API credentials: access token only, no ID token. */
export async function issueApiToken(
  deps: TokenDeps,
  principal: { tenantId: string; credentialsId: string },
  scope: string,
  jkt?: string,
): Promise<TokenResponse> {
  const ttlS = deps.config.SESAME_API_TOKEN_TTL_S;
  const minted = await deps.accessTokens.mint(
    {
      kind: 'api',
      tenantId: principal.tenantId,
      clientId: principal.credentialsId,
      credentialsId: principal.credentialsId,
      scope,
      expiresAt: Math.floor(deps.clock.now() / 1000) + ttlS,
      ...(jkt ? { jkt } : {}),
    },
    ttlS * 1000,
  );
  return { access_token: minted.token, token_type: jkt ? 'DPoP' : 'Bearer', expires_in: ttlS, scope };
}
