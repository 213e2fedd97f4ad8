import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it, jest } from '@jest/globals';
import { type CryptoKey, exportJWK, generateKeyPair } from 'jose';
import * as oidc from 'openid-client';
import { startRealPlatform } from './real-platform';
import { authenticatedClaims } from './token-fixtures';

/**
 * openid-client v6 as a FAPI-style RP: an application registered through the admin API for private_key_jwt
 * (its JWK Set by value) and required PAR; the library pushes the request to /par, Sesame's /authorize takes
 * the request_uri once, and the library redeems a code at /token with a signed client assertion. The sign-in
 * between is not driven in a browser here: the code is issued through Grants as auth would (rp-library's
 * way). allowInsecureRequests only because the test server speaks http on localhost.
 */
jest.setTimeout(180_000);

const REDIRECT = 'http://localhost:3000/callback';

describe('openid-client v6: PAR + private_key_jwt', () => {
  let env: Awaited<ReturnType<typeof startRealPlatform>>;
  let app: { appId: string; clientId: string; clientSecret: string };
  let privateKey: CryptoKey;
  beforeAll(async () => {
    env = await startRealPlatform('fapi-par');
    const pair = await generateKeyPair('ES256', { extractable: true });
    privateKey = pair.privateKey;
    const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'rp-key-1', use: 'sig', alg: 'ES256' };
    const res = await fetch(`${env.platform.url}/api/v1/admin/tenants/${env.demo.tenantId}/applications`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${env.platform.adminKey}` },
      body: JSON.stringify({
        name: 'Bank RP',
        redirectUris: [REDIRECT],
        tokenEndpointAuthMethod: 'private_key_jwt',
        jwks: { keys: [jwk] },
        requirePushedAuthorizationRequests: true,
      }),
    });
    app = (await res.json()) as typeof app;
    assert.equal(res.status, 201, JSON.stringify(app));
  });
  afterAll(() => env?.stop());

  const discover = (auth: oidc.ClientAuth) =>
    oidc.discovery(new URL(env.platform.url), app.clientId, undefined, auth, {
      execute: [oidc.allowInsecureRequests],
    });

  it('pushes the request, opens /authorize with its request_uri once, and redeems the code with a client assertion', async () => {
    const config = await discover(oidc.PrivateKeyJwt({ key: privateKey, kid: 'rp-key-1' }));
    assert.equal(config.serverMetadata().pushed_authorization_request_endpoint, `${env.platform.url}/par`);
    const verifier = oidc.randomPKCECodeVerifier();
    const challenge = await oidc.calculatePKCECodeChallenge(verifier);
    const nonce = oidc.randomNonce();
    const url = await oidc.buildAuthorizationUrlWithPAR(config, {
      redirect_uri: REDIRECT,
      scope: 'openid email',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      nonce,
      state: 'e2e-state',
    });
    assert.deepEqual([...url.searchParams.keys()].sort(), ['client_id', 'request_uri']);
    const page = await fetch(url, { redirect: 'manual' });
    assert.equal(page.status, 200, 'the sign-in page of the pushed request');
    const again = await fetch(url, { redirect: 'manual' });
    assert.equal(again.status, 400, 'a request_uri is used once');

    // Without PAR this app is refused (requirePushedAuthorizationRequests).
    const direct = new URL(`${env.platform.url}/authorize`);
    for (const [k, v] of Object.entries({
      client_id: app.clientId,
      response_type: 'code',
      redirect_uri: REDIRECT,
      scope: 'openid',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    }))
      direct.searchParams.set(k, v);
    const refused = await fetch(direct, { redirect: 'manual' });
    assert.equal(refused.status, 302);
    assert.equal(new URL(refused.headers.get('location') ?? '').searchParams.get('error'), 'invalid_request');

    const { code } = await env.grants.issueCode({
      tenantId: env.demo.tenantId,
      appId: app.appId,
      clientId: app.clientId,
      redirectUri: REDIRECT,
      scope: 'openid email',
      codeChallenge: challenge,
      codeChallengeMethod: 'S256',
      dpopJkt: '',
      flowId: 'fapi-par-e2e',
      claims: authenticatedClaims(nonce),
    });
    const callback = new URL(REDIRECT);
    callback.searchParams.set('code', code);
    callback.searchParams.set('state', 'e2e-state');
    callback.searchParams.set('iss', config.serverMetadata().issuer);
    const tokens = await oidc.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: verifier,
      expectedNonce: nonce,
      expectedState: 'e2e-state',
      idTokenExpected: true,
    });
    assert.equal(tokens.claims()?.aud, app.clientId);
    const info = await env.grants.introspectAccessToken({ accessToken: tokens.access_token });
    assert.equal(info.active, true);
  });

  it("refuses the app's secret at /par: it authenticates with its key only", async () => {
    const config = await discover(oidc.ClientSecretBasic(app.clientSecret));
    const err = await oidc
      .buildAuthorizationUrlWithPAR(config, { redirect_uri: REDIRECT, scope: 'openid' })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    // 401 with a challenge (RFC 6749 §5.2): the library surfaces it as a WWW-Authenticate error.
    assert.ok(err instanceof oidc.WWWAuthenticateChallengeError, String(err));
    assert.equal(err.status, 401);
    assert.equal(((await err.response.json()) as { error: string }).error, 'invalid_client');
  });
});
