import assert from 'node:assert/strict';
import { createPrivateKey, createPublicKey, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ConnectionOptions, connect } from 'node:tls';
import { afterAll, beforeAll, describe, it, jest } from '@jest/globals';
import { caFetch } from '@sesame/embedded/ca-fetch';
import { createTestPki } from '@sesame/testing';
import { createLocalJWKSet, jwtVerify } from 'jose';
import { type RunningLauncher, devMailCode, readDemo, startLauncher } from './embedded-launcher';
import { HttpBrowser, emailCodeSignIn } from './http-signin';

/**
 * `npm start -- --https` (the launcher with the flag, then with SESAME_HTTPS=1): the public port over TLS with
 * the checkout's own CA (kept beside the demo file, in tls/), an https issuer and only https endpoints in
 * discovery, TLS 1.1 refused, and an email-code sign-in through the demo application redeemed over https by a
 * client that trusts the CA and nothing else.
 */
jest.setTimeout(240_000);

/** The TLS version a handshake with `port` settles on, or the error code that ended it. */
function handshake(port: number, opts: ConnectionOptions): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port, servername: 'localhost', ...opts }, () => {
      resolve(socket.getProtocol() ?? 'none');
      socket.end();
    });
    socket.on('error', (err: NodeJS.ErrnoException) => resolve(`error:${err.code ?? err.message}`));
  });
}

describe('npm start -- --https', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'sesame-https-'));
  const demoFile = join(tmp, 'demo.json');
  const caFile = join(tmp, 'tls', 'ca.crt');
  const adminKey = randomBytes(24).toString('base64url');
  let launcher: RunningLauncher;
  let ca: string;
  let get: ReturnType<typeof caFetch>;
  beforeAll(async () => {
    launcher = await startLauncher({
      dataDir: join(tmp, 'data'),
      demoFile,
      adminKey,
      args: ['--memory', '--https'],
    });
    ca = readFileSync(caFile, 'utf8');
    get = caFetch(ca);
  });
  afterAll(async () => {
    await launcher?.stop();
  });

  it('serves https on localhost and says where the CA is and how to trust it', () => {
    assert.match(launcher.url, /^https:\/\/localhost:\d+$/);
    // Not a terminal here, so the banner is one JSON line: it names the CA (the human lines say how to trust it).
    assert.ok(launcher.output().includes(`"caFile":${JSON.stringify(caFile)}`), launcher.output());
    assert.equal(readDemo(demoFile).issuer, launcher.url);
  });

  it('lists an https issuer and only https URLs in discovery', async () => {
    const res = await get(`${launcher.url}/.well-known/openid-configuration`);
    assert.equal(res.status, 200);
    const doc = (await res.json()) as Record<string, unknown>;
    assert.equal(doc.issuer, launcher.url);
    const urls = Object.entries(doc).filter(([, v]) => typeof v === 'string' && /^[a-z]+:\/\//.test(v));
    assert.ok(urls.length >= 8, JSON.stringify(urls));
    for (const [name, value] of urls)
      assert.ok(
        (value as string).startsWith(`${launcher.url}/`) || value === launcher.url,
        `${name}: ${value}`,
      );
    for (const name of ['authorization_endpoint', 'token_endpoint', 'userinfo_endpoint', 'jwks_uri'])
      assert.match(String(doc[name]), /^https:\/\/localhost:\d+\//, name);
  });

  it('refuses a client that does not trust the CA, and one that offers TLS 1.1 at most', async () => {
    const port = Number(new URL(launcher.url).port);
    await assert.rejects(fetch(`${launcher.url}/healthz`), /fetch failed/);
    assert.equal(await handshake(port, { ca, maxVersion: 'TLSv1.2' }), 'TLSv1.2');
    assert.equal(await handshake(port, { ca }), 'TLSv1.3');
    assert.equal(
      await handshake(port, {
        ca,
        minVersion: 'TLSv1',
        maxVersion: 'TLSv1.1',
        ciphers: 'DEFAULT@SECLEVEL=0',
      }),
      'error:ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION',
    );
  });

  it('signs a person in through the demo application over https: secure cookies, code, tokens', async () => {
    const demo = readDemo(demoFile);
    const identify = await get(
      `${launcher.url}/authorize?${new URLSearchParams({
        client_id: demo.clientId,
        redirect_uri: demo.redirectUri,
        response_type: 'code',
        scope: 'openid',
        state: 's',
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        code_challenge_method: 'S256',
      })}`,
    );
    assert.equal(identify.status, 200);
    const cookies = identify.headers.getSetCookie();
    assert.ok(cookies.length > 0 && cookies.every((c) => /;\s*secure/i.test(c)), cookies.join('\n'));

    const email = `https-${randomBytes(4).toString('hex')}@example.com`;
    const signIn = await emailCodeSignIn({
      authUrl: launcher.url,
      browser: new HttpBrowser(launcher.url, {}, get),
      clientId: demo.clientId,
      redirectUri: demo.redirectUri,
      email,
      codeFor: devMailCode(launcher.url, get),
    });
    const token = await get(`${launcher.url}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: signIn.code,
        redirect_uri: demo.redirectUri,
        code_verifier: signIn.codeVerifier,
        client_id: demo.clientId,
        client_secret: demo.clientSecret,
      }).toString(),
    });
    const body = (await token.json()) as { id_token?: string; access_token?: string };
    assert.equal(token.status, 200, JSON.stringify(body));
    const jwks = await (await get(`${launcher.url}/jwks`)).json();
    const { payload } = await jwtVerify(body.id_token ?? '', createLocalJWKSet(jwks as never), {
      issuer: launcher.url,
      audience: demo.clientId,
    });
    assert.equal(payload.email, email);
    const userinfo = await get(`${launcher.url}/userinfo`, {
      headers: { authorization: `Bearer ${body.access_token}` },
    });
    assert.equal(userinfo.status, 200);
  });

  it('authenticates a self_signed_tls_client_auth app by its TLS certificate and binds its tokens to it', async () => {
    const demo = readDemo(demoFile);
    const pki = await createTestPki('https-rp');
    const files = await pki.issue('bank-rp');
    const rp = { cert: readFileSync(files.cert, 'utf8'), key: readFileSync(files.key, 'utf8') };
    const jwk = createPublicKey(createPrivateKey(rp.key)).export({ format: 'jwk' });
    const created = await get(`${launcher.url}/api/v1/admin/tenants/${demo.tenantId}/applications`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${adminKey}` },
      body: JSON.stringify({
        name: 'Bank RP',
        redirectUris: [demo.redirectUri],
        tokenEndpointAuthMethod: 'self_signed_tls_client_auth',
        jwks: { keys: [jwk] },
        tlsClientCertificateBoundAccessTokens: true,
      }),
    });
    const app = (await created.json()) as { clientId: string };
    assert.equal(created.status, 201, JSON.stringify(app));
    const withCert = caFetch(ca, rp);
    const email = `mtls-${randomBytes(4).toString('hex')}@example.com`;
    const redeem = async (fetchFn: typeof get) => {
      const signIn = await emailCodeSignIn({
        authUrl: launcher.url,
        browser: new HttpBrowser(launcher.url, {}, get),
        clientId: app.clientId,
        redirectUri: demo.redirectUri,
        email,
        codeFor: devMailCode(launcher.url, get),
      });
      return fetchFn(`${launcher.url}/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code: signIn.code,
          redirect_uri: demo.redirectUri,
          code_verifier: signIn.codeVerifier,
          client_id: app.clientId,
        }).toString(),
      });
    };
    // Without its certificate the app is nobody.
    const refused = await redeem(get);
    assert.deepEqual(
      [refused.status, ((await refused.json()) as { error: string }).error],
      [401, 'invalid_client'],
    );
    const token = await redeem(withCert);
    const body = (await token.json()) as { access_token: string };
    assert.equal(token.status, 200, JSON.stringify(body));
    const userinfo = (fetchFn: typeof get) =>
      fetchFn(`${launcher.url}/userinfo`, { headers: { authorization: `Bearer ${body.access_token}` } });
    assert.equal((await userinfo(withCert)).status, 200);
    const replayed = await userinfo(get);
    assert.equal(replayed.status, 401);
    assert.match(replayed.headers.get('www-authenticate') ?? '', /invalid_token/);
  });

  it('keeps its CA and certificate on the next start (SESAME_HTTPS=1 this time)', async () => {
    const served = launcher.output();
    assert.equal(await launcher.stop(), 0, served.slice(-2000));
    launcher = await startLauncher({
      dataDir: join(tmp, 'data'),
      demoFile,
      adminKey,
      args: ['--memory'],
      env: { SESAME_HTTPS: '1' },
    });
    assert.match(launcher.url, /^https:/);
    assert.equal(readFileSync(caFile, 'utf8'), ca);
    const res = await get(`${launcher.url}/.well-known/openid-configuration`);
    assert.equal(((await res.json()) as { issuer: string }).issuer, launcher.url);
  });
});
