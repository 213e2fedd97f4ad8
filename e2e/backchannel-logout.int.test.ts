import assert from 'node:assert/strict';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, it, jest } from '@jest/globals';
import { eventually } from '@sesame/testing';
import { createRemoteJWKSet, decodeJwt, jwtVerify } from 'jose';
import { freshEmail } from './hosted-signin-support';
import { HttpBrowser, emailCodeSignIn } from './http-signin';
import { type RealPlatform, startRealPlatform } from './token-fixtures';

// The platform on the real servers starts slowly on a loaded machine.
jest.setTimeout(300_000);

const BACKCHANNEL_LOGOUT_EVENT = 'http://schemas.openid.net/event/backchannel-logout';

/**
 * RP-Initiated Logout ending a real sign-in, and Back-Channel Logout 1.0 end to end on the real servers: auth
 * ends the browser's session, publishes a LogoutNotice on Kafka, ciba-notifier POSTs the logout token to the
 * app's endpoint (a local HTTP server here), which verifies it with jose against the published /jwks.
 */
describe('logout on the real platform (Kafka, Redis, Mongo-wire, SMTP)', () => {
  let env: RealPlatform;
  let receiver: Server;
  let receiverUrl = '';
  const received: { contentType?: string; body: string }[] = [];

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => {
        body += c;
      });
      req.on('end', () => {
        received.push({ contentType: req.headers['content-type'], body });
        res.writeHead(200, { 'cache-control': 'no-store' }).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/backchannel-logout`;
    // Every suite signs in from 127.0.0.1 against the same Redis: the per-IP mail limit is not what this tests.
    env = await startRealPlatform('backchannel-logout', {
      smtp: true,
      env: { SESAME_MAILS_PER_IP: '100000' },
    });
  });
  afterAll(async () => {
    await env?.stop();
    receiver?.close();
  });

  const redirectUri = 'http://localhost:3000/callback';
  const jwks = () => createRemoteJWKSet(new URL(`${env.platform.url}/jwks`));

  /** A new app with a back-channel logout URI, a person signed in to it in a browser, and their ID token. */
  async function signedInApp(name: string, refresh = false) {
    const url = env.platform.url;
    const created = await fetch(`${url}/api/v1/admin/tenants/${env.demo.tenantId}/applications`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${env.platform.adminKey}` },
      body: JSON.stringify({
        name,
        redirectUris: [redirectUri],
        postLogoutRedirectUris: ['http://localhost:3000/signed-out'],
        backchannelLogoutUri: receiverUrl,
        ...(refresh ? { refreshTokens: { enabled: true } } : {}),
      }),
    });
    const app = (await created.json()) as { clientId: string; clientSecret: string };
    assert.equal(created.status, 201, JSON.stringify(app));

    const browser = new HttpBrowser(url);
    const signIn = await emailCodeSignIn({
      authUrl: url,
      clientId: app.clientId,
      redirectUri,
      email: freshEmail('logout'),
      browser,
      ...(refresh ? { scope: 'openid email offline_access' } : {}),
    });
    const tokens = await fetch(`${url}/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${app.clientId}:${app.clientSecret}`).toString('base64')}`,
      },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: signIn.code,
        redirect_uri: redirectUri,
        code_verifier: signIn.codeVerifier,
      }),
    });
    const { id_token: idToken, refresh_token: refreshToken } = (await tokens.json()) as {
      id_token: string;
      refresh_token?: string;
    };
    assert.equal(tokens.status, 200);
    const { payload: idClaims } = await jwtVerify(idToken, jwks(), { issuer: url, audience: app.clientId });
    assert.equal(typeof idClaims.sid, 'string', 'the ID token carries sid');
    return { app, browser, idToken, idClaims, refreshToken };
  }

  /** Whether the browser's next /authorize shows the sign-in page rather than signing in silently. */
  async function showsSignInPage(browser: HttpBrowser, clientId: string): Promise<boolean> {
    const next = await browser.request(
      `/authorize?${new URLSearchParams({
        client_id: clientId,
        redirect_uri: redirectUri,
        response_type: 'code',
        scope: 'openid',
        state: 's2',
        nonce: 'n2',
      })}`,
    );
    return next.status === 200 && /name="email"/.test(next.body);
  }

  /** The first logout token delivered to the receiver for `clientId`, verified against /jwks. */
  async function deliveredLogoutToken(clientId: string) {
    const forApp = () =>
      received.find((d) => {
        const token = new URLSearchParams(d.body).get('logout_token') ?? '';
        return token !== '' && decodeJwt(token).aud === clientId;
      });
    await eventually(
      async () => forApp(),
      (d) => d !== undefined,
      60_000,
    );
    const delivery = forApp();
    assert.equal(delivery?.contentType, 'application/x-www-form-urlencoded');
    const logoutToken = new URLSearchParams(delivery?.body).get('logout_token') ?? '';
    const verified = await jwtVerify(logoutToken, jwks(), {
      issuer: env.platform.url,
      audience: clientId,
      typ: 'logout+jwt',
      algorithms: ['RS256'],
    });
    return { logoutToken, ...verified };
  }

  it('ends the session (next /authorize shows the sign-in page) and the app receives a verifiable logout_token', async () => {
    const { app, browser, idToken, idClaims } = await signedInApp('Logout RP');
    const logout = await browser.request(
      `/logout?${new URLSearchParams({
        id_token_hint: idToken,
        post_logout_redirect_uri: 'http://localhost:3000/signed-out',
        state: 'bye-1',
      })}`,
    );
    assert.deepEqual([logout.status, logout.location], [303, 'http://localhost:3000/signed-out?state=bye-1']);
    assert.equal(await showsSignInPage(browser, app.clientId), true, 'the sign-in page, not single sign-on');

    const { logoutToken, payload, protectedHeader } = await deliveredLogoutToken(app.clientId);
    assert.equal(protectedHeader.typ, 'logout+jwt');
    assert.equal(payload.sub, idClaims.sub);
    assert.equal(payload.sid, idClaims.sid);
    assert.deepEqual(payload.events, { [BACKCHANNEL_LOGOUT_EVENT]: {} });
    assert.equal(typeof payload.jti, 'string');
    assert.equal('nonce' in decodeJwt(logoutToken), false);
  });

  it("the RP's server POSTs /logout with the id_token_hint and no cookie: the browser's session ends and the app receives the logout_token", async () => {
    const { app, browser, idToken, idClaims } = await signedInApp('Server Logout RP');
    const logout = await fetch(`${env.platform.url}/logout`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ id_token_hint: idToken }),
      redirect: 'manual',
    });
    assert.equal(logout.status, 200);
    assert.equal(
      await showsSignInPage(browser, app.clientId),
      true,
      'no silent sign-in after the server logout',
    );
    const { payload } = await deliveredLogoutToken(app.clientId);
    assert.equal(payload.sub, idClaims.sub);
    assert.equal(payload.sid, idClaims.sid);
  });

  it("support's Sign out everywhere (admin API): the session ends, the RP's refresh token stops working, and its back-channel endpoint receives a logout token", async () => {
    const { app, browser, idClaims, refreshToken } = await signedInApp('Sign out everywhere RP', true);
    assert.ok(refreshToken, 'offline_access gives a refresh token');
    const url = env.platform.url;
    const refresh = () =>
      fetch(`${url}/token`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from(`${app.clientId}:${app.clientSecret}`).toString('base64')}`,
        },
        body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken }),
      });
    const out = await fetch(
      `${url}/api/v1/admin/tenants/${env.demo.tenantId}/users/${encodeURIComponent(String(idClaims.sub))}/sign-out-everywhere`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${env.platform.adminKey}` },
        body: '{}',
      },
    );
    const body = (await out.json()) as { endedSessions: number; notifiedApps: string[] };
    assert.equal(out.status, 200, JSON.stringify(body));
    assert.equal(body.endedSessions, 1);
    assert.deepEqual(body.notifiedApps, [app.clientId]);
    const refused = await refresh();
    assert.equal(refused.status, 400);
    assert.equal(((await refused.json()) as { error: string }).error, 'invalid_grant');
    assert.equal(await showsSignInPage(browser, app.clientId), true, 'no silent sign-in afterwards');
    const { payload } = await deliveredLogoutToken(app.clientId);
    assert.equal(payload.sub, idClaims.sub);
    assert.equal(payload.sid, idClaims.sid);
  });
});
