import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it, jest } from '@jest/globals';
import { type Browser, type BrowserContext, desktopContext, launchBrowser } from '@sesame/testing/browser';
import { type CryptoKey, calculateJwkThumbprint, exportJWK } from 'jose';
import * as oidc from 'openid-client';
import { FAPI_REDIRECT, keyedConfig, registerKeyedApp, rpSigningKey, signInAtUrl } from './fapi-support';
import { startRealPlatform } from './real-platform';

/**
 * openid-client v6 as a FAPI 2.0-style RP with DPoP (RFC 9449), in Chromium against the platform on the real
 * servers: an application registered through the admin API for private_key_jwt, required PAR and required
 * DPoP; the library pushes the request to /par with a DPoP proof (binding the code to its key), the person
 * signs in by email code in the browser, and the library redeems the code, calls /userinfo and refreshes,
 * each with a proof of the same key. Server nonces are on (SESAME_DPOP_NONCE_SECRET): the library answers
 * use_dpop_nonce by itself. The same access token without its proof is refused. allowInsecureRequests only
 * because the test server speaks http on localhost.
 */
// Generous: the machine these run on is shared, and a loaded one makes every page slower.
jest.setTimeout(420_000);

const REDIRECT = FAPI_REDIRECT;

describe('openid-client v6: PAR + private_key_jwt + DPoP in a browser', () => {
  let env: Awaited<ReturnType<typeof startRealPlatform>>;
  let browser: Browser;
  let context: BrowserContext;
  let app: { appId: string; clientId: string };
  let clientKey: CryptoKey;
  beforeAll(async () => {
    env = await startRealPlatform('fapi-dpop', {
      smtp: true,
      env: {
        SESAME_MAILS_PER_IP: '100000',
        SESAME_DPOP_NONCE_SECRET: 'e2e-dpop-nonce-secret-of-32-chars-or-more',
      },
    });
    browser = await launchBrowser();
    const key = await rpSigningKey();
    clientKey = key.privateKey;
    app = await registerKeyedApp(env, key.jwk, {
      name: 'DPoP Bank RP',
      requirePushedAuthorizationRequests: true,
      dpopBoundAccessTokens: true,
      refreshTokens: { enabled: true, absoluteLifetimeS: 86_400, idleLifetimeS: 3600 },
    });
    assert.equal((app as { dpopBoundAccessTokens?: boolean }).dpopBoundAccessTokens, true);
  });
  afterAll(async () => {
    await context?.close().catch(() => undefined);
    await browser?.close();
    await env?.stop();
  });

  it('signs in through PAR with a DPoP-bound code, calls userinfo with proofs, refreshes keeping the binding; the token alone is refused', async () => {
    const config = await keyedConfig(env, app.clientId, clientKey);
    assert.deepEqual(config.serverMetadata().dpop_signing_alg_values_supported, [
      'ES256',
      'PS256',
      'RS256',
      'EdDSA',
    ]);
    const dpopKeys = await oidc.randomDPoPKeyPair('ES256');
    const jkt = await calculateJwkThumbprint(await exportJWK(dpopKeys.publicKey), 'sha256');
    const DPoP = oidc.getDPoPHandle(config, dpopKeys);

    const verifier = oidc.randomPKCECodeVerifier();
    const nonce = oidc.randomNonce();
    const state = oidc.randomState();
    const url = await oidc.buildAuthorizationUrlWithPAR(
      config,
      {
        redirect_uri: REDIRECT,
        scope: 'openid email offline_access',
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        nonce,
        state,
      },
      { DPoP },
    );

    context = await desktopContext(browser);
    const { email, callbackUrl } = await signInAtUrl(context, url, 'dpop');

    // The code is bound to the DPoP key of the PAR request (RFC 9449 §10.1): /token needs a proof by it.
    const tokens = await oidc.authorizationCodeGrant(
      config,
      callbackUrl,
      { pkceCodeVerifier: verifier, expectedNonce: nonce, expectedState: state, idTokenExpected: true },
      undefined,
      { DPoP },
    );
    assert.equal(tokens.token_type, 'dpop');
    assert.ok(tokens.refresh_token, 'offline_access gave a refresh token');
    const sub = tokens.claims()!.sub;

    const info = await oidc.fetchUserInfo(config, tokens.access_token, sub, { DPoP });
    assert.equal(info.email, email);

    const introspected = await oidc.tokenIntrospection(config, tokens.access_token);
    assert.equal(introspected.active, true);
    assert.equal(introspected.token_type, 'DPoP');
    assert.deepEqual(introspected.cnf, { jkt });

    // The same access token without its proof: as Bearer, and as DPoP without a DPoP header.
    const asBearer = await fetch(`${env.platform.url}/userinfo`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    assert.equal(asBearer.status, 401);
    assert.match(
      asBearer.headers.get('www-authenticate') ?? '',
      /^DPoP realm="sesame", error="invalid_token"/,
    );
    const noProof = await fetch(`${env.platform.url}/userinfo`, {
      headers: { authorization: `DPoP ${tokens.access_token}` },
    });
    assert.equal(noProof.status, 401);
    assert.equal(((await noProof.json()) as { error: string }).error, 'invalid_token');

    // Another key's proof (an attacker holding the token) is refused too.
    const thief = oidc.getDPoPHandle(config, await oidc.randomDPoPKeyPair('ES256'));
    const stolen = await oidc.fetchUserInfo(config, tokens.access_token, sub, { DPoP: thief }).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(stolen instanceof oidc.WWWAuthenticateChallengeError, String(stolen));
    assert.equal(stolen.status, 401);

    // Refresh with a proof of the same key: a new DPoP-bound access token, bound to the same key.
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!, undefined, { DPoP });
    assert.equal(refreshed.token_type, 'dpop');
    assert.notEqual(refreshed.access_token, tokens.access_token);
    assert.equal((await oidc.fetchUserInfo(config, refreshed.access_token, sub, { DPoP })).email, email);
    assert.deepEqual((await oidc.tokenIntrospection(config, refreshed.access_token)).cnf, { jkt });

    // This app requires DPoP: a refresh without a proof is refused with invalid_dpop_proof.
    const bare = await oidc.refreshTokenGrant(config, refreshed.refresh_token!).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(bare instanceof oidc.ResponseBodyError, String(bare));
    assert.equal(bare.error, 'invalid_dpop_proof');
  });
});
