import { createHash } from 'node:crypto';
import { newSecret } from '@sesame/platform';

/** The console as an OIDC client of the system tenant (authorization code + PKCE, client_secret_basic). */
export interface ConsoleClient {
  /** auth_url: the issuer, with /authorize and /token under it. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** {admin_url}/console/callback */
  redirectUri: string;
  /** {admin_url}/console/signed-out: where auth's /logout sends the browser back (registered for the client). */
  postLogoutRedirectUri: string;
}

export interface SignInRequest {
  verifier: string;
  nonce: string;
}

export const newSignInRequest = (): SignInRequest => ({ verifier: newSecret(48), nonce: newSecret() });

const challengeOf = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

/** Where the browser goes to sign in; `prompt=login` asks for a fresh sign-in (step-up). */
export function authorizeUrl(
  client: ConsoleClient,
  state: string,
  req: SignInRequest,
  stepUp: boolean,
  /** The address the sign-in page starts with (an invitation's invitee). */
  loginHint?: string,
): string {
  const url = new URL(`${client.issuer.replace(/\/+$/, '')}/authorize`);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: client.clientId,
    redirect_uri: client.redirectUri,
    scope: 'openid email',
    state,
    nonce: req.nonce,
    code_challenge: challengeOf(req.verifier),
    code_challenge_method: 'S256',
    ...(stepUp ? { prompt: 'login', max_age: '0' } : {}),
    ...(loginHint ? { login_hint: loginHint } : {}),
  }).toString();
  return url.toString();
}

export class SignInError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SignInError';
  }
}

/** What the console needs of the ID token. */
export interface SignedInIdentity {
  email: string;
  authTime: number;
  /** The ID token itself: the id_token_hint of the sign-out (kept in the server-side session only). */
  idToken: string;
}

/**
 * Redeems the code at the token endpoint with the client secret and the PKCE verifier, and checks the ID
 * token's iss, aud, nonce and exp. Its signature is not checked: the token came straight from the token
 * endpoint over the connection the console opened, which OIDC Core 3.1.3.7 allows in its place.
 */
export async function redeemCode(
  client: ConsoleClient,
  code: string,
  req: SignInRequest,
  nowMs: number,
  fetchImpl: typeof fetch = fetch,
): Promise<SignedInIdentity> {
  const res = await fetchImpl(`${client.issuer.replace(/\/+$/, '')}/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${encodeURIComponent(client.clientId)}:${encodeURIComponent(client.clientSecret)}`).toString('base64')}`,
    },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: client.redirectUri,
      code_verifier: req.verifier,
    }).toString(),
    signal: AbortSignal.timeout(10_000),
  });
  if (!res.ok) throw new SignInError(`the token endpoint answered ${res.status}`);
  const body = (await res.json()) as { id_token?: unknown };
  if (typeof body.id_token !== 'string') throw new SignInError('no id_token');
  const parts = body.id_token.split('.');
  if (parts.length !== 3) throw new SignInError('the id_token is not a signed JWT');
  let claims: Record<string, unknown>;
  try {
    claims = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;
  } catch {
    throw new SignInError('the id_token payload is not JSON');
  }
  const aud = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  if (claims.iss !== client.issuer.replace(/\/+$/, '')) throw new SignInError('wrong issuer');
  if (!aud.includes(client.clientId)) throw new SignInError('wrong audience');
  if (claims.nonce !== req.nonce) throw new SignInError('wrong nonce');
  if (typeof claims.exp !== 'number' || claims.exp * 1000 <= nowMs) throw new SignInError('expired id_token');
  if (typeof claims.email !== 'string' || !claims.email) throw new SignInError('no email claim');
  if (claims.email_verified === false) throw new SignInError('the email is not verified');
  const authTime = typeof claims.auth_time === 'number' ? claims.auth_time * 1000 : nowMs;
  return { email: claims.email.toLowerCase(), authTime, idToken: body.id_token };
}

/**
 * RP-Initiated Logout 1.0 at auth_url/logout: ends the Sesame session the console signed in with (at once
 * when the hint names it, else auth asks the person to confirm), then back to the console's signed-out page.
 * Without an ID token (a session from before the console kept it) client_id names the console instead.
 */
export function logoutUrl(client: ConsoleClient, idToken: string | undefined): string {
  const url = new URL(`${client.issuer.replace(/\/+$/, '')}/logout`);
  url.search = new URLSearchParams({
    ...(idToken ? { id_token_hint: idToken } : {}),
    client_id: client.clientId,
    post_logout_redirect_uri: client.postLogoutRedirectUri,
  }).toString();
  return url.toString();
}
