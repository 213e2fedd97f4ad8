import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it, jest } from '@jest/globals';
import { type CryptoKey, UnsecuredJWT, exportJWK, generateKeyPair } from 'jose';
import * as oidc from 'openid-client';
import { startRealPlatform } from './real-platform';
import { authenticatedClaims } from './token-fixtures';

/**
 * openid-client v6 as a JAR RP (RFC 9101): an application registered through the admin API with its JWK Set,
 * private_key_jwt and requestObjectSigningAlg ES256. The library signs the request object; Sesame verifies it
 * at /authorize and at /par, refuses a tampered or an unsigned one, and the library redeems the code and
 * verifies the ID token. The code is issued through Grants as auth would (as in fapi-par-private-key-jwt).
 * allowInsecureRequests only because the test server speaks http on localhost.
 */
jest.setTimeout(180_000);

const REDIRECT = 'http://localhost:3000/callback';

describe('openid-client v6: signed request objects (JAR)', () => {
  let env: Awaited<ReturnType<typeof startRealPlatform>>;
  let app: { appId: string; clientId: string };
  let privateKey: CryptoKey;
  let config: oidc.Configuration;
  beforeAll(async () => {
    env = await startRealPlatform('fapi-jar');
    const pair = await generateKeyPair('ES256', { extractable: true });
    privateKey = pair.privateKey;
    const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'rp-key-1', use: 'sig', alg: 'ES256' };
    const res = await fetch(`${env.platform.url}/api/v1/admin/tenants/${env.demo.tenantId}/applications`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${env.platform.adminKey}` },
      body: JSON.stringify({
        name: 'JAR RP',
        redirectUris: [REDIRECT],
        tokenEndpointAuthMethod: 'private_key_jwt',
        jwks: { keys: [jwk] },
        requestObjectSigningAlg: 'ES256',
      }),
    });
    app = (await res.json()) as typeof app;
    assert.equal(res.status, 201, JSON.stringify(app));
    config = await oidc.discovery(
      new URL(env.platform.url),
      app.clientId,
      undefined,
      oidc.PrivateKeyJwt({ key: privateKey, kid: 'rp-key-1' }),
      { execute: [oidc.allowInsecureRequests] },
    );
  });
  afterAll(() => env?.stop());

  const signedRequest = (params: Record<string, string>) =>
    oidc.buildAuthorizationUrlWithJAR(
      config,
      { redirect_uri: REDIRECT, scope: 'openid email', ...params },
      {
        key: privateKey,
        kid: 'rp-key-1',
      },
    );

  it('discovery offers RS256, PS256 and ES256 request objects', () => {
    const algs = config.serverMetadata().request_object_signing_alg_values_supported ?? [];
    for (const alg of ['RS256', 'PS256', 'ES256']) assert.ok(algs.includes(alg), alg);
  });

  it('takes a signed request object at /authorize and through /par, and the code flow completes', async () => {
    const verifier = oidc.randomPKCECodeVerifier();
    const challenge = await oidc.calculatePKCECodeChallenge(verifier);
    const nonce = oidc.randomNonce();
    const params = { code_challenge: challenge, code_challenge_method: 'S256', nonce, state: 'jar-state' };
    const direct = await signedRequest(params);
    assert.deepEqual([...direct.searchParams.keys()].sort(), ['client_id', 'request']);
    assert.equal((await fetch(direct, { redirect: 'manual' })).status, 200, 'the sign-in page');
    const pushed = await oidc.buildAuthorizationUrlWithPAR(
      config,
      (await signedRequest(params)).searchParams,
    );
    assert.equal((await fetch(pushed, { redirect: 'manual' })).status, 200, 'the pushed sign-in page');

    const { code } = await env.grants.issueCode({
      tenantId: env.demo.tenantId,
      appId: app.appId,
      clientId: app.clientId,
      redirectUri: REDIRECT,
      scope: 'openid email',
      codeChallenge: challenge,
      codeChallengeMethod: 'S256',
      flowId: 'fapi-jar-e2e',
      dpopJkt: '',
      claims: authenticatedClaims(nonce),
    });
    const callback = new URL(REDIRECT);
    callback.searchParams.set('code', code);
    callback.searchParams.set('state', 'jar-state');
    callback.searchParams.set('iss', config.serverMetadata().issuer);
    const tokens = await oidc.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: verifier,
      expectedNonce: nonce,
      expectedState: 'jar-state',
      idTokenExpected: true,
    });
    assert.equal(tokens.claims()?.aud, app.clientId);
  });

  it('refuses a tampered signed request object and an unsigned one from this app (invalid_request_object)', async () => {
    const url = await signedRequest({ nonce: 'n-1' });
    const [header, payload] = (url.searchParams.get('request') ?? '').split('.');
    const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString()) as Record<string, unknown>;
    const forged = Buffer.from(JSON.stringify({ ...claims, scope: 'openid phone' })).toString('base64url');
    const unsigned = new UnsecuredJWT({ ...claims }).encode();
    for (const request of [
      `${header}.${forged}.${url.searchParams.get('request')?.split('.')[2]}`,
      unsigned,
    ]) {
      const refused = new URL(`${env.platform.url}/authorize`);
      refused.searchParams.set('client_id', app.clientId);
      refused.searchParams.set('redirect_uri', REDIRECT);
      refused.searchParams.set('request', request);
      const res = await fetch(refused, { redirect: 'manual' });
      assert.equal(res.status, 302);
      const location = new URL(res.headers.get('location') ?? '');
      assert.equal(location.origin + location.pathname, REDIRECT);
      assert.equal(location.searchParams.get('error'), 'invalid_request_object');
    }
  });
});
