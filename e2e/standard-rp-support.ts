// Support for standard-rp.e2e.test.ts: the same relying-party calls made by two libraries of two ecosystems,
// openid-client v6 (Node.js, in this process) and Authlib (Python, e2e/python-rp/rp.py run once per call).
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRemoteJWKSet, decodeJwt, jwtVerify } from 'jose';
import * as oidc from 'openid-client';
import { authorizationRequest, rpConfig } from './hosted-signin-support';

/** What an RP holds after a code or refresh grant: its tokens and the verified ID token's claims. */
export interface RpTokens {
  accessToken: string;
  idToken: string;
  refreshToken?: string;
  scope?: string;
  claims: Record<string, unknown>;
}

/** An OAuth error as the library reports it (RFC 6749 5.2, or an error redirect of OIDC Core 3.1.2.6). */
export interface RpError {
  error: string;
}

export const isError = (answer: RpTokens | RpError): answer is RpError => 'error' in answer;

/** One authorization request the library built; `finish` redeems the callback it leads to. */
export interface RpAuthorization {
  url: string;
  finish(callbackUrl: string, checks?: { maxAge?: number }): Promise<RpTokens | RpError>;
}

/** The calls both libraries make, each by its own API. */
export interface StandardRp {
  name: string;
  authorize(params: Record<string, string>): Promise<RpAuthorization>;
  userinfo(accessToken: string): Promise<{ status: number; body?: Record<string, unknown> }>;
  refresh(refreshToken: string): Promise<RpTokens | RpError>;
  revoke(token: string, hint: 'access_token' | 'refresh_token'): Promise<void>;
  introspect(token: string): Promise<Record<string, unknown>>;
  /** The RP-initiated logout URL (end_session_endpoint of discovery) the library builds. */
  endSessionUrl(params: {
    idTokenHint: string;
    postLogoutRedirectUri: string;
    state: string;
  }): Promise<string>;
  /**
   * A received logout_token verified as Back-Channel Logout 1.0 §2.6 says (signature against jwks_uri, iss,
   * aud = client_id, iat, typ logout+jwt, the events member, no nonce) and its sid equal to `sid`, the one of
   * the RP's ID token: its claims, or the reason it was refused.
   */
  verifyLogoutToken(logoutToken: string, sid: string): Promise<{ claims: Record<string, unknown> } | RpError>;
}

export const BACKCHANNEL_LOGOUT_EVENT = 'http://schemas.openid.net/event/backchannel-logout';

export interface RpSetup {
  issuer: string;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
}

/** The error of a failed openid-client call: the OAuth error code, else rethrown. */
function oauthErrorOf(err: unknown): RpError {
  if (err instanceof oidc.ResponseBodyError || err instanceof oidc.AuthorizationResponseError) {
    return { error: err.error };
  }
  throw err;
}

/** openid-client v6: discovery, client_secret_basic, PKCE, state, nonce, ID token JWS checked against /jwks. */
export async function openidClientRp(setup: RpSetup): Promise<StandardRp> {
  const config = await rpConfig(setup.issuer, setup.clientId, setup.clientSecret);
  const tokensOf = (t: oidc.TokenEndpointResponse & oidc.TokenEndpointResponseHelpers): RpTokens => ({
    accessToken: t.access_token,
    idToken: t.id_token ?? '',
    ...(t.refresh_token ? { refreshToken: t.refresh_token } : {}),
    ...(t.scope ? { scope: t.scope } : {}),
    claims: { ...t.claims() },
  });
  return {
    name: 'openid-client (Node.js)',
    async authorize(params) {
      const req = await authorizationRequest(config, setup.redirectUri, params);
      return {
        url: req.url.href,
        finish: (callbackUrl, checks = {}) =>
          oidc
            .authorizationCodeGrant(config, new URL(callbackUrl), {
              pkceCodeVerifier: req.pkceCodeVerifier,
              expectedState: req.state,
              expectedNonce: req.nonce,
              idTokenExpected: true,
              ...(checks.maxAge !== undefined ? { maxAge: checks.maxAge } : {}),
            })
            .then(tokensOf, oauthErrorOf),
      };
    },
    async userinfo(accessToken) {
      try {
        const body = await oidc.fetchUserInfo(config, accessToken, oidc.skipSubjectCheck);
        return { status: 200, body: { ...body } };
      } catch (err) {
        if (err instanceof oidc.WWWAuthenticateChallengeError) return { status: err.response.status };
        throw err;
      }
    },
    refresh: (refreshToken) => oidc.refreshTokenGrant(config, refreshToken).then(tokensOf, oauthErrorOf),
    revoke: (token, hint) => oidc.tokenRevocation(config, token, { token_type_hint: hint }),
    introspect: async (token) => ({ ...(await oidc.tokenIntrospection(config, token)) }),
    endSessionUrl: async ({ idTokenHint, postLogoutRedirectUri, state }) =>
      oidc.buildEndSessionUrl(config, {
        id_token_hint: idTokenHint,
        post_logout_redirect_uri: postLogoutRedirectUri,
        state,
      }).href,
    async verifyLogoutToken(logoutToken, sid) {
      const meta = config.serverMetadata();
      try {
        const { payload } = await jwtVerify(logoutToken, createRemoteJWKSet(new URL(meta.jwks_uri!)), {
          issuer: meta.issuer,
          audience: setup.clientId,
          typ: 'logout+jwt',
          algorithms: ['RS256'],
          requiredClaims: ['iat', 'jti', 'events', 'sid'],
        });
        const events = payload.events as Record<string, unknown> | undefined;
        if (typeof events?.[BACKCHANNEL_LOGOUT_EVENT] !== 'object')
          return { error: 'no backchannel-logout event' };
        if ('nonce' in decodeJwt(logoutToken)) return { error: 'a nonce in a logout token' };
        if (payload.sid !== sid) return { error: 'sid is not the ID token’s' };
        return { claims: { ...payload } };
      } catch (err) {
        return { error: (err as Error).message };
      }
    },
  };
}

const script = join(dirname(fileURLToPath(import.meta.url)), 'python-rp/rp.py');

/** Runs one step of the Python RP: the JSON it prints, or the script's failure with its stderr. */
function pythonStep(python: string, input: Record<string, unknown>): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const child = spawn(python, [script], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => {
      out += c;
    });
    child.stderr.on('data', (c) => {
      err += c;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`python RP step ${input.step} exited ${code}: ${err}`));
      else resolve(JSON.parse(out) as Record<string, unknown>);
    });
    child.stdin.end(JSON.stringify(input));
  });
}

/** Authlib (Python): OAuth2Session for the grants, authlib.jose for the ID token against jwks_uri. */
export function authlibRp(setup: RpSetup, python: string): StandardRp {
  const base = { issuer: setup.issuer, client_id: setup.clientId, client_secret: setup.clientSecret };
  const step = (name: string, fields: Record<string, unknown>) =>
    pythonStep(python, { ...base, step: name, ...fields });
  const tokensOf = (answer: Record<string, unknown>): RpTokens | RpError => {
    if (typeof answer.error === 'string') return { error: answer.error };
    const token = answer.token as Record<string, string>;
    return {
      accessToken: token.access_token!,
      idToken: token.id_token!,
      ...(token.refresh_token ? { refreshToken: token.refresh_token } : {}),
      ...(token.scope ? { scope: token.scope } : {}),
      claims: answer.claims as Record<string, unknown>,
    };
  };
  return {
    name: 'Authlib (Python)',
    async authorize(params) {
      const { scope = 'openid', ...extra } = params;
      const req = await step('authorize', { redirect_uri: setup.redirectUri, scope, extra });
      return {
        url: String(req.url),
        finish: async (callbackUrl, checks = {}) => {
          const error = new URL(callbackUrl).searchParams.get('error');
          // Authlib's client reads an error redirect as a missing code: the RP reads the error itself.
          if (error) return { error };
          return tokensOf(
            await step('redeem', {
              redirect_uri: setup.redirectUri,
              callback: callbackUrl,
              state: req.state,
              nonce: req.nonce,
              code_verifier: req.code_verifier,
              ...(checks.maxAge !== undefined ? { max_age: checks.maxAge } : {}),
            }),
          );
        },
      };
    },
    async userinfo(accessToken) {
      const answer = await step('userinfo', { access_token: accessToken });
      return answer.status === 200
        ? { status: 200, body: answer.body as Record<string, unknown> }
        : { status: Number(answer.status) };
    },
    refresh: async (refreshToken) => tokensOf(await step('refresh', { refresh_token: refreshToken })),
    async revoke(token, hint) {
      const answer = await step('revoke', { token, token_type_hint: hint });
      if (answer.status !== 200) throw new Error(`revocation answered ${answer.status}`);
    },
    introspect: async (token) => (await step('introspect', { token })).body as Record<string, unknown>,
    async endSessionUrl({ idTokenHint, postLogoutRedirectUri, state }) {
      const answer = await step('end_session', {
        id_token_hint: idTokenHint,
        post_logout_redirect_uri: postLogoutRedirectUri,
        state,
      });
      return String(answer.url);
    },
    async verifyLogoutToken(logoutToken, sid) {
      const answer = await step('logout_token', { logout_token: logoutToken, sid });
      return typeof answer.error === 'string'
        ? { error: answer.error }
        : { claims: answer.claims as Record<string, unknown> };
    },
  };
}
