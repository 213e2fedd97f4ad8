import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it, jest } from '@jest/globals';
import { type Browser, type BrowserContext, desktopContext, launchBrowser } from '@sesame/testing/browser';
import type { CryptoKey, JWK } from 'jose';
import * as oidc from 'openid-client';
import {
  FAPI_REDIRECT,
  keyedConfig,
  postApplication,
  registerKeyedApp,
  rpSigningKey,
  signInAtUrl,
} from './fapi-support';
import { startRealPlatform } from './real-platform';

/**
 * An application with the FAPI 2.0 profile (securityProfile: fapi2), used by openid-client v6 in Chromium
 * against the platform on the real servers: PAR + private_key_jwt + PKCE S256 + DPoP succeeds, and each
 * missing piece is refused with its error code: a secret-based registration, /authorize without PAR, /par
 * without PKCE or without client authentication, /token without a DPoP proof. Refresh tokens are not
 * rotated. allowInsecureRequests only because the test server speaks http on localhost (loopback).
 */
jest.setTimeout(420_000);

const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => assert.fail('expected a refusal'),
    (e: unknown) => e,
  );

describe('the FAPI 2.0 profile: openid-client v6 in a browser', () => {
  let env: Awaited<ReturnType<typeof startRealPlatform>>;
  let browser: Browser;
  let context: BrowserContext;
  let app: { appId: string; clientId: string };
  let key: { privateKey: CryptoKey; jwk: JWK };
  beforeAll(async () => {
    env = await startRealPlatform('fapi2', { smtp: true, env: { SESAME_MAILS_PER_IP: '100000' } });
    browser = await launchBrowser();
    key = await rpSigningKey();
    app = await registerKeyedApp(env, key.jwk, {
      name: 'FAPI 2.0 Bank RP',
      securityProfile: 'fapi2',
      refreshTokens: { enabled: true, absoluteLifetimeS: 86_400, idleLifetimeS: 3600 },
    });
    assert.equal((app as { securityProfile?: string }).securityProfile, 'fapi2');
  });
  afterAll(async () => {
    await context?.close().catch(() => undefined);
    await browser?.close();
    await env?.stop();
  });

  it('refuses to register the profile for an app that authenticates with its secret', async () => {
    const refused = await postApplication(env, {
      name: 'Secret RP',
      redirectUris: [FAPI_REDIRECT],
      securityProfile: 'fapi2',
    });
    assert.equal(refused.status, 400);
    assert.deepEqual(refused.body.error, {
      code: 'invalid_request',
      message: 'invalid request body',
      fields: {
        tokenEndpointAuthMethod:
          'the FAPI 2.0 profile needs private_key_jwt, tls_client_auth or self_signed_tls_client_auth',
      },
    });
  });

  it('refuses /authorize without PAR, /par without PKCE and /par without client authentication', async () => {
    const direct = new URL(`${env.platform.url}/authorize`);
    for (const [k, v] of Object.entries({
      client_id: app.clientId,
      response_type: 'code',
      redirect_uri: FAPI_REDIRECT,
      scope: 'openid',
      state: 's1',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
    }))
      direct.searchParams.set(k, v);
    const answer = await fetch(direct, { redirect: 'manual' });
    assert.equal(answer.status, 302);
    const location = new URL(answer.headers.get('location') ?? '');
    assert.equal(location.searchParams.get('error'), 'invalid_request');
    assert.equal(location.searchParams.get('iss'), env.platform.url);

    const config = await keyedConfig(env, app.clientId, key.privateKey);
    const noPkce = await rejection(
      oidc.buildAuthorizationUrlWithPAR(config, { redirect_uri: FAPI_REDIRECT, scope: 'openid' }),
    );
    assert.ok(noPkce instanceof oidc.ResponseBodyError, String(noPkce));
    assert.deepEqual(
      [noPkce.status, noPkce.error, noPkce.error_description],
      [400, 'invalid_request', 'the FAPI 2.0 profile requires code_challenge (PKCE S256)'],
    );

    const anonymous = await fetch(`${env.platform.url}/par`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: app.clientId, redirect_uri: FAPI_REDIRECT, scope: 'openid' }),
    });
    assert.equal(anonymous.status, 401);
    assert.equal(((await anonymous.json()) as { error: string }).error, 'invalid_client');
  });

  it('signs in with PAR + private_key_jwt + PKCE S256 + DPoP; /token without a proof is invalid_dpop_proof; refresh keeps its token', async () => {
    const config = await keyedConfig(env, app.clientId, key.privateKey);
    const DPoP = oidc.getDPoPHandle(config, await oidc.randomDPoPKeyPair('ES256'));
    const verifier = oidc.randomPKCECodeVerifier();
    const nonce = oidc.randomNonce();
    const state = oidc.randomState();
    // Pushed without a proof, so the code is not bound to a key: /token's refusal below is the profile's.
    const url = await oidc.buildAuthorizationUrlWithPAR(config, {
      redirect_uri: FAPI_REDIRECT,
      scope: 'openid email offline_access',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      nonce,
      state,
    });
    context = await desktopContext(browser);
    const { email, callbackUrl } = await signInAtUrl(context, url, 'fapi2');
    assert.equal(callbackUrl.searchParams.get('iss'), env.platform.url, 'iss in the response (RFC 9207)');
    const checks = { pkceCodeVerifier: verifier, expectedNonce: nonce, expectedState: state };

    const bearer = await rejection(oidc.authorizationCodeGrant(config, callbackUrl, checks));
    assert.ok(bearer instanceof oidc.ResponseBodyError, String(bearer));
    assert.deepEqual([bearer.status, bearer.error], [400, 'invalid_dpop_proof']);

    // The refusal did not use the code up: redeemed with a proof it gives DPoP-bound tokens.
    const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, checks, undefined, { DPoP });
    assert.equal(tokens.token_type, 'dpop');
    const sub = tokens.claims()!.sub;
    assert.equal((await oidc.fetchUserInfo(config, tokens.access_token, sub, { DPoP })).email, email);
    const asBearer = await fetch(`${env.platform.url}/userinfo`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    assert.equal(asBearer.status, 401);

    // No rotation (FAPI 2.0 §5.3.2.1): the same refresh token comes back and works again.
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!, undefined, { DPoP });
    assert.equal(refreshed.refresh_token, tokens.refresh_token);
    assert.equal(refreshed.token_type, 'dpop');
    const again = await oidc.refreshTokenGrant(config, tokens.refresh_token!, undefined, { DPoP });
    assert.equal(again.token_type, 'dpop');
    const bare = await rejection(oidc.refreshTokenGrant(config, tokens.refresh_token!));
    assert.ok(bare instanceof oidc.ResponseBodyError, String(bare));
    assert.equal(bare.error, 'invalid_dpop_proof');
  });
});
