// The sample relying party: every OIDC step is one openid-client call (discovery, the authorization URL with
// PKCE, state and nonce, the code grant that verifies the ID token, userinfo, the end-session URL); the
// back-channel logout token is verified with jose against the issuer's published keys.
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRemoteJWKSet } from 'jose';
import * as oidc from 'openid-client';
import { backchannelReceiver } from './backchannel';
import type { ExampleConfig } from './config';
import { claimsPage, homePage, problemPage } from './pages';
import { SessionStore } from './sessions';

export { backchannelReceiver, BACKCHANNEL_LOGOUT_EVENT } from './backchannel';
export { loadExampleConfig, ExampleConfigError, type ExampleConfig } from './config';
export { SessionStore } from './sessions';

const COOKIE = 'sesame_example_session';
/** The scopes the app asks for: who (openid) and the email address the claims page shows. */
const SCOPE = 'openid email';
/** A form body the back channel accepts: a logout token is a few kilobytes. */
const MAX_BODY = 64 * 1024;

export interface ExampleRp {
  /** http://localhost:<port>: the redirect URI is this plus /callback. */
  url: string;
  sessions: SessionStore;
  close(): Promise<void>;
}

/** Discovery once, again after a failure (the platform may start after the app). */
function discoverer(config: ExampleConfig) {
  let pending: Promise<oidc.Configuration> | undefined;
  return () => {
    pending ??= (async () => {
      const issuer = new URL(config.issuer);
      const found = await oidc.discovery(
        issuer,
        config.clientId,
        config.clientSecret,
        oidc.ClientSecretBasic(config.clientSecret),
        // The demo platform speaks http on localhost; a real issuer is https and needs no such option.
        issuer.protocol === 'http:' ? { execute: [oidc.allowInsecureRequests] } : undefined,
      );
      // Verify the ID token's signature against jwks_uri (openid-client trusts the TLS answer otherwise).
      oidc.enableNonRepudiationChecks(found);
      return found;
    })().catch((err) => {
      pending = undefined;
      throw err;
    });
    return pending;
  };
}

const cookieOf = (req: IncomingMessage) =>
  /(?:^|;\s*)sesame_example_session=([A-Za-z0-9_-]+)/.exec(req.headers.cookie ?? '')?.[1];

/**
 * No script and inline style only; forms post to this app, whose answer may redirect to the issuer (a form's
 * redirects count for form-action).
 */
const contentSecurityPolicy = (issuerOrigin: string) =>
  `default-src 'none'; style-src 'unsafe-inline'; form-action 'self' ${issuerOrigin}; frame-ancestors 'none'; base-uri 'none'`;

function send(res: ServerResponse, status: number, html: string, csp: string) {
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'content-security-policy': csp,
  });
  res.end(html);
}

const redirect = (res: ServerResponse, location: string, cookie?: string) => {
  res.writeHead(303, { location, 'cache-control': 'no-store', ...(cookie ? { 'set-cookie': cookie } : {}) });
  res.end();
};

/** The request body, or undefined past MAX_BODY (the rest is read and dropped, so the answer still goes). */
function readBody(req: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    let body: string | undefined = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      if (body !== undefined) body = body.length + chunk.length > MAX_BODY ? undefined : body + chunk;
    });
    req.on('end', () => resolve(body));
    req.on('error', reject);
  });
}

/**
 * Starts the sample app on config.port (0: a free one) on 127.0.0.1. Routes: GET / (home), GET /login (to
 * Sesame), GET /callback (the code grant), GET /claims, POST /logout (RP-initiated logout) and
 * POST /backchannel-logout (Sesame's logout token).
 */
export async function startExampleRp(
  config: ExampleConfig,
  log: (line: string) => void = () => undefined,
): Promise<ExampleRp> {
  const sessions = new SessionStore();
  const discover = discoverer(config);
  const csp = contentSecurityPolicy(new URL(config.issuer).origin);
  let url = '';
  let receiver: ReturnType<typeof backchannelReceiver> | undefined;
  const cookie = (id: string) => `${COOKIE}=${id}; Path=/; HttpOnly; SameSite=Lax`;

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const here = new URL(req.url ?? '/', url);
    const id = cookieOf(req);
    const session = sessions.get(id);
    const route = `${req.method} ${here.pathname}`;
    const page = (status: number, html: string) => send(res, status, html, csp);

    if (route === 'GET /') {
      const justSignedOut =
        session?.kind === 'signed-out' && !!session.state && here.searchParams.get('state') === session.state;
      return page(
        200,
        homePage({
          issuer: config.issuer,
          ...(session?.kind === 'signed-in' ? { session } : {}),
          ...(session?.kind === 'signed-out' ? { ended: session, justSignedOut } : {}),
        }),
      );
    }
    if (route === 'GET /login') {
      const oidcConfig = await discover();
      const codeVerifier = oidc.randomPKCECodeVerifier();
      const state = oidc.randomState();
      const nonce = oidc.randomNonce();
      const authorize = oidc.buildAuthorizationUrl(oidcConfig, {
        redirect_uri: `${url}/callback`,
        scope: SCOPE,
        code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
        state,
        nonce,
      });
      const next = sessions.newId();
      sessions.set(next, { kind: 'pending', codeVerifier, state, nonce });
      return redirect(res, authorize.href, cookie(next));
    }
    if (route === 'GET /callback') {
      if (session?.kind !== 'pending')
        return page(400, problemPage('Sign-in not finished', 'This browser has no sign-in on its way here.'));
      const oidcConfig = await discover();
      let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
      try {
        // Checks state, the code grant with the PKCE verifier, and the ID token (signature, iss, aud, nonce).
        tokens = await oidc.authorizationCodeGrant(oidcConfig, here, {
          pkceCodeVerifier: session.codeVerifier,
          expectedState: session.state,
          expectedNonce: session.nonce,
          idTokenExpected: true,
        });
      } catch (err) {
        const reason =
          err instanceof oidc.AuthorizationResponseError || err instanceof oidc.ResponseBodyError
            ? `Sesame answered ${err.error}${err.error_description ? `: ${err.error_description}` : ''}`
            : `The answer did not check out: ${(err as Error).message}`;
        return page(400, problemPage('Sign-in not finished', reason));
      }
      const claims = { ...tokens.claims()! };
      const userinfo = await oidc
        .fetchUserInfo(oidcConfig, tokens.access_token, String(claims.sub))
        .then((u) => ({ ...u }) as Record<string, unknown>)
        .catch((err: Error) => ({ error: err.message }));
      sessions.set(id!, {
        kind: 'signed-in',
        idToken: tokens.id_token!,
        claims,
        userinfo,
        signedInAt: new Date(),
      });
      log(`signed in: ${claims.email ?? claims.sub} (Sesame session ${claims.sid})`);
      return redirect(res, '/claims');
    }
    if (route === 'GET /claims') {
      if (session?.kind !== 'signed-in') return redirect(res, '/');
      return page(200, claimsPage(session));
    }
    // A cross-site form cannot sign the person out: the session cookie is SameSite=Lax, not sent on its POST.
    if (route === 'POST /logout') {
      if (session?.kind !== 'signed-in') return redirect(res, '/');
      const oidcConfig = await discover();
      const state = oidc.randomState();
      // This app's session ends now; Sesame's ends at its end-session endpoint, which sends the browser back.
      sessions.set(id!, { kind: 'signed-out', by: 'sign-out', state, at: new Date() });
      const endSession = oidc.buildEndSessionUrl(oidcConfig, {
        id_token_hint: session.idToken,
        post_logout_redirect_uri: `${url}/`,
        state,
      });
      return redirect(res, endSession.href);
    }
    if (route === 'POST /backchannel-logout') {
      const body = await readBody(req);
      if (!receiver) {
        const meta = (await discover()).serverMetadata();
        receiver = backchannelReceiver({
          issuer: meta.issuer,
          clientId: config.clientId,
          keys: createRemoteJWKSet(new URL(meta.jwks_uri!)),
          sessions,
          log,
        });
      }
      const answer =
        body === undefined
          ? { status: 400, body: { error: 'invalid_request', error_description: 'the body is too large' } }
          : await receiver(body);
      res.writeHead(answer.status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      return void res.end(JSON.stringify(answer.body));
    }
    return page(404, problemPage('Page not found', `This app has no page ${here.pathname}.`));
  };

  const server = createServer((req, res) => {
    // What is left to fail is a call to Sesame (discovery, the token or userinfo endpoint, the keys).
    handle(req, res).catch((err: Error) => {
      // The path only: the callback's query carries the authorization code and state.
      log(`${req.method} ${(req.url ?? '').split('?')[0]}: ${err.message}`);
      if (res.headersSent) return void res.end();
      const problem = `Sesame did not answer at ${config.issuer}: is npm start running? (${err.message})`;
      if (req.url?.startsWith('/backchannel-logout')) {
        res.writeHead(502, { 'content-type': 'application/json', 'cache-control': 'no-store' });
        return void res.end(JSON.stringify({ error: 'temporarily_unavailable', error_description: problem }));
      }
      send(res, 502, problemPage('Sesame did not answer', problem), csp);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, '127.0.0.1', resolve);
  });
  url = `http://localhost:${(server.address() as AddressInfo).port}`;
  return {
    url,
    sessions,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
