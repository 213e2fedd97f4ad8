import assert from 'node:assert/strict';
import { X509Certificate, createHash, createPrivateKey, createPublicKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, it, jest } from '@jest/globals';
import { createTestPki } from '@sesame/testing';
import { type Browser, launchBrowser, phoneContext } from '@sesame/testing/browser';
import { type CryptoKey, type JWK, SignJWT, decodeJwt, exportJWK, generateKeyPair } from 'jose';
import { CIBA_GRANT, recorder } from './ciba-support';
import { freshEmail, mailedCode } from './hosted-signin-support';
import { startRealPlatform } from './real-platform';

/**
 * FAPI-CIBA end to end on the six services over the real servers: two RPs registered through the admin API
 * with backchannelAuthenticationRequestSigningAlg send signed authentication requests (CIBA Core 7.1.1) to
 * /authorize_ciba. The poll RP authenticates with private_key_jwt and gets a DPoP-bound token; the ping RP
 * authenticates with its TLS certificate (self_signed_tls_client_auth, forwarded in a terminator's header)
 * and gets a certificate-bound token. The person approves each link in chromium.
 */
jest.setTimeout(240_000);

const CERT_HEADER = 'x-ssl-client-cert';
const nowS = () => Math.floor(Date.now() / 1000);

describe('FAPI-CIBA end to end', () => {
  let env: Awaited<ReturnType<typeof startRealPlatform>>;
  let browser: Browser;
  let pings: Awaited<ReturnType<typeof recorder>>;
  let issuer: string;
  let signingKey: CryptoKey;
  let signingJwk: JWK;
  let certPem: string;
  let certJwk: JWK;
  const person = freshEmail('fapi-ciba');

  beforeAll(async () => {
    pings = await recorder(() => ({ status: 204, json: {} }));
    env = await startRealPlatform('fapi-ciba', {
      smtp: true,
      env: { SESAME_MAILS_PER_IP: '100000', SESAME_TLS_CLIENT_CERT_HEADER: CERT_HEADER },
    });
    issuer = env.platform.url;
    browser = await launchBrowser();
    const pair = await generateKeyPair('ES256', { extractable: true });
    signingKey = pair.privateKey;
    signingJwk = { ...(await exportJWK(pair.publicKey)), kid: 'rp-key-1', use: 'sig', alg: 'ES256' };
    const files = await (await createTestPki('fapi-ciba-e2e')).issue('bank-rp');
    certPem = readFileSync(files.cert, 'utf8');
    certJwk = createPublicKey(createPrivateKey(readFileSync(files.key, 'utf8'))).export({
      format: 'jwk',
    }) as JWK;
  });
  afterAll(async () => {
    await browser?.close();
    await env?.stop();
    await pings?.close();
  });

  async function createApp(body: Record<string, unknown>) {
    const res = await fetch(`${issuer}/api/v1/admin/tenants/${env.demo.tenantId}/applications`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${env.platform.adminKey}` },
      body: JSON.stringify({ redirectUris: ['https://rp.example/cb'], ...body }),
    });
    const app = (await res.json()) as Record<string, unknown>;
    assert.equal(res.status, 201, JSON.stringify(app));
    return app as { clientId: string; backchannelAuthenticationRequestSigningAlg?: string };
  }

  const post = async (path: string, form: Record<string, string>, headers: Record<string, string> = {}) => {
    const res = await fetch(`${issuer}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(form).toString(),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const signedRequest = (clientId: string, claims: Record<string, unknown>) =>
    new SignJWT({
      iss: clientId,
      aud: issuer,
      iat: nowS(),
      nbf: nowS(),
      exp: nowS() + 300,
      jti: crypto.randomUUID(),
      scope: 'openid email',
      binding_message: 'Pay 42 EUR to ACME',
      channel: { type: 'direct_link' },
      ...claims,
    })
      .setProtectedHeader({ alg: 'ES256', kid: 'rp-key-1' })
      .sign(signingKey);
  const clientAssertion = (clientId: string) =>
    new SignJWT({ iss: clientId, sub: clientId, aud: issuer, exp: nowS() + 60, jti: crypto.randomUUID() })
      .setProtectedHeader({ alg: 'ES256', kid: 'rp-key-1' })
      .sign(signingKey);
  const pkjwt = async (clientId: string) => ({
    client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
    client_assertion: await clientAssertion(clientId),
  });

  /** The person's side in chromium: the link, Continue, the email code, Approve. */
  async function approve(link: string) {
    const context = await phoneContext(browser);
    try {
      const page = await context.newPage();
      await page.goto(link);
      await page.getByRole('heading', { name: 'Sign-in request' }).waitFor();
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByLabel('Email address').fill(person);
      const sentAfter = new Date();
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByLabel('Verification code').fill(await mailedCode(person, sentAfter));
      await page.getByRole('button', { name: 'Verify' }).click();
      await page.getByRole('button', { name: 'Approve' }).click();
      await page.getByRole('heading', { name: 'Request approved' }).waitFor();
    } finally {
      await context.close();
    }
  }

  it('poll: private_key_jwt and a signed request; the token is DPoP-bound and refused without its proof', async () => {
    const app = await createApp({
      name: 'FAPI-CIBA poll RP',
      ciba: { mode: 'poll', strictErrors: true },
      tokenEndpointAuthMethod: 'private_key_jwt',
      jwks: { keys: [signingJwk] },
      backchannelAuthenticationRequestSigningAlg: 'ES256',
    });
    assert.equal(app.backchannelAuthenticationRequestSigningAlg, 'ES256');
    const discovery = (await (await fetch(`${issuer}/.well-known/openid-configuration`)).json()) as Record<
      string,
      unknown
    >;
    assert.deepEqual(discovery.backchannel_authentication_request_signing_alg_values_supported, [
      'RS256',
      'PS256',
      'ES256',
    ]);
    // A plain request is refused for this app.
    const plain = await post('/authorize_ciba', {
      ...(await pkjwt(app.clientId)),
      scope: 'openid email',
      channel: JSON.stringify({ type: 'direct_link' }),
    });
    assert.deepEqual([plain.status, plain.body.error], [400, 'invalid_request']);
    const started = await post('/authorize_ciba', {
      ...(await pkjwt(app.clientId)),
      request: await signedRequest(app.clientId, {}),
    });
    assert.equal(started.status, 200, JSON.stringify(started.body));
    await approve(String(started.body.link));

    const dpop = await generateKeyPair('ES256', { extractable: true });
    const dpopJwk = await exportJWK(dpop.publicKey);
    const proof = (htm: string, htu: string, accessToken?: string) =>
      new SignJWT({
        jti: crypto.randomUUID(),
        htm,
        htu,
        iat: nowS(),
        ...(accessToken ? { ath: createHash('sha256').update(accessToken).digest('base64url') } : {}),
      })
        .setProtectedHeader({ typ: 'dpop+jwt', alg: 'ES256', jwk: dpopJwk })
        .sign(dpop.privateKey);
    const tokenUrl = String(discovery.token_endpoint);
    const userinfoUrl = String(discovery.userinfo_endpoint);
    const tokens = await post(
      new URL(tokenUrl).pathname,
      {
        grant_type: CIBA_GRANT,
        auth_req_id: String(started.body.auth_req_id),
        ...(await pkjwt(app.clientId)),
      },
      { dpop: await proof('POST', tokenUrl) },
    );
    assert.equal(tokens.status, 200, JSON.stringify(tokens.body));
    assert.equal(tokens.body.token_type, 'DPoP');
    assert.equal(decodeJwt(String(tokens.body.id_token)).email, person);
    const accessToken = String(tokens.body.access_token);
    const withProof = await fetch(userinfoUrl, {
      headers: { authorization: `DPoP ${accessToken}`, dpop: await proof('GET', userinfoUrl, accessToken) },
    });
    assert.equal(withProof.status, 200);
    const bearer = await fetch(userinfoUrl, { headers: { authorization: `Bearer ${accessToken}` } });
    assert.equal(bearer.status, 401);
  });

  it('ping: mutual TLS at /authorize_ciba and /token with a signed request; the token is certificate-bound', async () => {
    const app = await createApp({
      name: 'FAPI-CIBA ping RP',
      ciba: { mode: 'ping', notificationEndpoint: `${pings.url}/cb` },
      tokenEndpointAuthMethod: 'self_signed_tls_client_auth',
      jwks: { keys: [{ ...certJwk, kid: 'tls' }, signingJwk] },
      tlsClientCertificateBoundAccessTokens: true,
      backchannelAuthenticationRequestSigningAlg: 'ES256',
    });
    const cert = { [CERT_HEADER]: Buffer.from(new X509Certificate(certPem).raw).toString('base64') };
    const request = await signedRequest(app.clientId, { client_notification_token: 'rp-bearer-fapi' });
    const noCert = await post('/authorize_ciba', { client_id: app.clientId, request });
    assert.deepEqual([noCert.status, noCert.body.error], [401, 'invalid_client']);
    const started = await post('/authorize_ciba', { client_id: app.clientId, request }, cert);
    assert.equal(started.status, 200, JSON.stringify(started.body));
    const before = pings.seen.length;
    await approve(String(started.body.link));
    const [notification] = (await pings.count(before + 1, 60_000)).slice(before);
    assert.equal(notification?.authorization, 'Bearer rp-bearer-fapi');
    assert.deepEqual(JSON.parse(notification?.body ?? '{}'), { auth_req_id: started.body.auth_req_id });
    const form = {
      grant_type: CIBA_GRANT,
      auth_req_id: String(started.body.auth_req_id),
      client_id: app.clientId,
    };
    const tokens = await post('/token', form, cert);
    assert.equal(tokens.status, 200, JSON.stringify(tokens.body));
    const accessToken = String(tokens.body.access_token);
    const userinfo = (headers: Record<string, string>) =>
      fetch(`${issuer}/userinfo`, { headers: { authorization: `Bearer ${accessToken}`, ...headers } });
    assert.equal((await userinfo(cert)).status, 200);
    assert.equal((await userinfo({})).status, 401);
  });
});
