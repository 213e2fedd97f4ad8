// A hosted email-code sign-in over plain HTTP (no browser): a cookie jar that never follows redirects, the
// hosted pages' forms read by their CSRF tokens and actions, the code from the tests' SMTP mailbox, and the
// RP's code redemption with PKCE and the ID token verified against /jwks.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { type JWTPayload, createRemoteJWKSet, jwtVerify } from 'jose';
import { mailedCode } from './hosted-signin-support';

const USER_AGENT =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

export interface HttpAnswer {
  status: number;
  location: string;
  body: string;
  contentType: string;
}

/** A browser for plain HTTP: keeps cookies, never follows redirects (`fetchFn`: one trusting a test CA). */
export class HttpBrowser {
  private readonly jar = new Map<string, string>();
  /** `headers`: sent with every request (a `traceparent`, as a traced client sends one). */
  constructor(
    readonly base: string,
    private readonly headers: Record<string, string> = {},
    private readonly fetchFn: (url: string, init?: RequestInit) => Promise<Response> = fetch,
  ) {}

  async request(path: string, form?: Record<string, string>): Promise<HttpAnswer> {
    const headers: Record<string, string> = { ...this.headers, 'user-agent': USER_AGENT };
    if (this.jar.size) headers.cookie = [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ');
    if (form) headers['content-type'] = 'application/x-www-form-urlencoded';
    const res = await this.fetchFn(new URL(path, this.base).href, {
      method: form ? 'POST' : 'GET',
      headers,
      body: form ? new URLSearchParams(form).toString() : undefined,
      redirect: 'manual',
    });
    for (const c of res.headers.getSetCookie()) {
      const [pair = ''] = c.split(';');
      const eq = pair.indexOf('=');
      if (eq > 0) this.jar.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
    return {
      status: res.status,
      location: res.headers.get('location') ?? '',
      body: await res.text(),
      contentType: res.headers.get('content-type') ?? '',
    };
  }
}

const csrfOf = (html: string) => /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';
const formActionOf = (html: string) => /<form method="post" action="([^"]+)"/.exec(html)?.[1] ?? '';

export interface HttpSignIn {
  flowId: string;
  /** The RP's callback URL (code, state, iss). */
  callback: URL;
  code: string;
  state: string;
  nonce: string;
  codeVerifier: string;
}

/**
 * One email-code sign-in from /authorize to the redirect with a code: identify, the mailed code, consent when
 * asked (approved). Asserts each step's answer, and state and iss on the redirect.
 */
export async function emailCodeSignIn(opts: {
  authUrl: string;
  clientId: string;
  redirectUri: string;
  email: string;
  scope?: string;
  /** iss of the redirect (SESAME_AUTH_URL) when it is not authUrl. */
  issuer?: string;
  /** The cookie jar to sign in with (a test that goes on in the same browser); default a new one. */
  browser?: HttpBrowser;
  /** Where the code is read from; default the tests' SMTP mailbox (`mailedCode`). */
  codeFor?: (email: string, sentAfter: Date) => Promise<string>;
}): Promise<HttpSignIn> {
  const browser = opts.browser ?? new HttpBrowser(opts.authUrl);
  const codeVerifier = randomBytes(32).toString('base64url');
  const state = randomBytes(16).toString('base64url');
  const nonce = randomBytes(16).toString('base64url');
  const authorize = `/authorize?${new URLSearchParams({
    client_id: opts.clientId,
    redirect_uri: opts.redirectUri,
    response_type: 'code',
    scope: opts.scope ?? 'openid email',
    state,
    nonce,
    code_challenge: createHash('sha256').update(codeVerifier).digest('base64url'),
    code_challenge_method: 'S256',
  })}`;
  const identify = await browser.request(authorize);
  assert.equal(identify.status, 200, `GET /authorize: ${identify.status} ${identify.body.slice(0, 300)}`);
  const csrf = csrfOf(identify.body);
  const emailAction = formActionOf(identify.body);
  const flowPath = /^\/flow\/[\w-]+/.exec(emailAction)?.[0];
  assert.ok(csrf && flowPath, 'the identify page has a form with a CSRF token');
  const sentAfter = new Date();
  const sent = await browser.request(emailAction, { csrf, email: opts.email });
  assert.deepEqual([sent.status, sent.location], [303, flowPath], `POST email: ${sent.body.slice(0, 300)}`);
  const code = await (opts.codeFor ?? mailedCode)(opts.email, sentAfter);
  const verified = await browser.request(`${flowPath}/code`, { csrf, code });
  assert.deepEqual([verified.status, verified.location], [303, `${flowPath}/continue`]);
  let done = await browser.request(`${flowPath}/continue`);
  if (done.status === 200) {
    assert.match(done.body, />Approve</, 'the consent page');
    done = await browser.request(`${flowPath}/consent`, { csrf: csrfOf(done.body), decision: 'approve' });
  }
  assert.equal(done.status, 302, `the finish redirects to the RP: ${done.status} ${done.body.slice(0, 300)}`);
  const callback = new URL(done.location);
  assert.equal(`${callback.origin}${callback.pathname}`, opts.redirectUri);
  assert.equal(callback.searchParams.get('state'), state);
  assert.equal(callback.searchParams.get('iss'), opts.issuer ?? opts.authUrl);
  const authCode = callback.searchParams.get('code');
  assert.ok(authCode, `a code on the redirect: ${done.location}`);
  return { flowId: flowPath.slice('/flow/'.length), callback, code: authCode, state, nonce, codeVerifier };
}

/**
 * The RP redeems the code at `tokenUrl` (client_secret_basic, PKCE) and verifies the ID token's signature
 * against `jwksUrl`, its issuer, audience and nonce. Returns the ID token's claims.
 */
export async function redeemAndVerify(opts: {
  tokenUrl: string;
  jwksUrl: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  signIn: HttpSignIn;
  /** Sent with the code redemption too (a `traceparent`). */
  headers?: Record<string, string>;
}): Promise<JWTPayload> {
  const res = await fetch(opts.tokenUrl, {
    method: 'POST',
    headers: {
      ...opts.headers,
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(
        `${encodeURIComponent(opts.clientId)}:${encodeURIComponent(opts.clientSecret)}`,
      ).toString('base64')}`,
    },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code: opts.signIn.code,
      redirect_uri: opts.redirectUri,
      code_verifier: opts.signIn.codeVerifier,
    }),
  });
  const body = (await res.json()) as { id_token?: string };
  assert.equal(res.status, 200, `POST /token: ${res.status} ${JSON.stringify(body)}`);
  assert.ok(body.id_token, 'the token response carries an ID token');
  const { payload } = await jwtVerify(body.id_token, createRemoteJWKSet(new URL(opts.jwksUrl)), {
    issuer: opts.issuer,
    audience: opts.clientId,
    algorithms: ['RS256'],
  });
  assert.equal(payload.nonce, opts.signIn.nonce);
  return payload;
}
