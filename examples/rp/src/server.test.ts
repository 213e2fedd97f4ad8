import assert from 'node:assert/strict';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { SignJWT, exportJWK, generateKeyPair } from 'jose';
import { BACKCHANNEL_LOGOUT_EVENT, type ExampleRp, startExampleRp } from './server';

/**
 * The app's routes against a stand-in issuer (discovery and a JWK set, on node:http): the back-channel
 * route verifies with the keys jwks_uri publishes and answers as Back-Channel Logout 1.0 §2.8 says.
 */
let issuer: Server;
let issuerUrl: string;
let rp: ExampleRp;
let keys: Awaited<ReturnType<typeof generateKeyPair>>;

beforeAll(async () => {
  keys = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(keys.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
  issuer = createServer((req, res) => {
    const json = (body: unknown) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (req.url === '/.well-known/openid-configuration')
      return json({
        issuer: issuerUrl,
        authorization_endpoint: `${issuerUrl}/authorize`,
        token_endpoint: `${issuerUrl}/token`,
        jwks_uri: `${issuerUrl}/jwks`,
        end_session_endpoint: `${issuerUrl}/logout`,
      });
    if (req.url === '/jwks') return json({ keys: [jwk] });
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => issuer.listen(0, '127.0.0.1', resolve));
  issuerUrl = `http://localhost:${(issuer.address() as AddressInfo).port}`;
  rp = await startExampleRp({ issuer: issuerUrl, clientId: 'client-1', clientSecret: 'secret', port: 0 });
});
afterAll(async () => {
  await rp?.close();
  await new Promise((resolve) => issuer?.close(resolve));
});

const logoutToken = (sid: string) =>
  new SignJWT({ sid, sub: 'user-1', jti: `j-${sid}`, events: { [BACKCHANNEL_LOGOUT_EVENT]: {} } })
    .setProtectedHeader({ alg: 'RS256', typ: 'logout+jwt', kid: 'k1' })
    .setIssuer(issuerUrl)
    .setAudience('client-1')
    .setIssuedAt()
    .sign(keys.privateKey);

const post = (body: string) =>
  fetch(`${rp.url}/backchannel-logout`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body,
  });

describe('the sample app’s routes', () => {
  it('POST /backchannel-logout with a logout token the issuer’s keys verify: 200, and the browser’s session ends', async () => {
    rp.sessions.set('browser', {
      kind: 'signed-in',
      idToken: 't',
      claims: { sub: 'user-1', sid: 'sid-1' },
      userinfo: {},
      signedInAt: new Date(),
    });
    const res = await post(new URLSearchParams({ logout_token: await logoutToken('sid-1') }).toString());
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    assert.deepEqual(await res.json(), {});
    const after = rp.sessions.get('browser');
    assert.equal(after?.kind === 'signed-out' && after.by, 'back-channel');
    // The home page of that browser says so.
    const home = await (
      await fetch(rp.url, { headers: { cookie: 'sesame_example_session=browser' } })
    ).text();
    assert.match(home, /Signed out by Sesame \(back-channel\)/);
  });

  it('POST /backchannel-logout with a bad logout token: 400 with an error body; no session ends', async () => {
    rp.sessions.set('other', {
      kind: 'signed-in',
      idToken: 't',
      claims: { sub: 'user-2', sid: 'sid-2' },
      userinfo: {},
      signedInAt: new Date(),
    });
    const forged = `${(await logoutToken('sid-2')).slice(0, -4)}AAAA`;
    const res = await post(new URLSearchParams({ logout_token: forged }).toString());
    assert.equal(res.status, 400);
    const body = (await res.json()) as { error: string; error_description: string };
    assert.equal(body.error, 'invalid_request');
    assert.match(body.error_description, /does not verify/);
    assert.equal(rp.sessions.get('other')?.kind, 'signed-in');
  });

  it('GET /login sends the browser to the issuer with PKCE (S256), state and nonce, to the app’s /callback', async () => {
    const res = await fetch(`${rp.url}/login`, { redirect: 'manual' });
    assert.equal(res.status, 303);
    const to = new URL(res.headers.get('location')!);
    assert.equal(`${to.origin}${to.pathname}`, `${issuerUrl}/authorize`);
    assert.equal(to.searchParams.get('redirect_uri'), `${rp.url}/callback`);
    assert.equal(to.searchParams.get('code_challenge_method'), 'S256');
    for (const p of ['code_challenge', 'state', 'nonce']) assert.ok(to.searchParams.get(p), p);
    assert.match(
      res.headers.get('set-cookie') ?? '',
      /^sesame_example_session=[\w-]+; Path=\/; HttpOnly; SameSite=Lax$/,
    );
  });

  it('GET /callback without a sign-in on its way: 400 and a page that says so', async () => {
    const res = await fetch(`${rp.url}/callback?code=x&state=y`);
    assert.equal(res.status, 400);
    assert.match(await res.text(), /This browser has no sign-in on its way here/);
  });

  it('POST /backchannel-logout with a body over 64 KiB: 400 with an error body', async () => {
    const res = await post(`logout_token=${'a'.repeat(70 * 1024)}`);
    assert.equal(res.status, 400);
    assert.deepEqual(await res.json(), {
      error: 'invalid_request',
      error_description: 'the body is too large',
    });
  });

  it('pages run no script and post forms only to the app and the issuer (Content-Security-Policy)', async () => {
    const csp = (await fetch(rp.url)).headers.get('content-security-policy') ?? '';
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, new RegExp(`form-action 'self' ${issuerUrl}`));
  });
});
