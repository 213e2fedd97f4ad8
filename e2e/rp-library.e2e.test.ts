import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it, jest } from '@jest/globals';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import * as oidc from 'openid-client';
import { startRealPlatform } from './real-platform';
import { authenticatedClaims } from './token-fixtures';

/**
 * An off-the-shelf RP library (openid-client v6) discovers Sesame, runs client_credentials, and redeems a
 * code (PKCE, client_secret_basic) whose ID token it verifies against /jwks — no special casing; the only
 * option is openid-client's own allowInsecureRequests, because the test server speaks http on localhost.
 */
// Each test and hook of this file may take this long (starting processes, load runs).
jest.setTimeout(180_000);

describe('openid-client v6 against Sesame', () => {
  let env: Awaited<ReturnType<typeof startRealPlatform>>;
  beforeAll(async () => {
    env = await startRealPlatform('rp-library');
  });
  afterAll(() => env?.stop());

  const discover = (clientId: string, secret: string, auth: oidc.ClientAuth) =>
    oidc.discovery(new URL(env.platform.url), clientId, secret, auth, {
      execute: [oidc.allowInsecureRequests],
    });

  it('discovers Sesame: issuer, token endpoint and jwks_uri of the auth_url', async () => {
    const config = await discover(
      env.demo.credentialsId,
      env.demo.apiSecret,
      oidc.ClientSecretPost(env.demo.apiSecret),
    );
    const metadata = config.serverMetadata();
    assert.equal(metadata.issuer, env.platform.url);
    assert.equal(metadata.token_endpoint, `${env.platform.url}/token`);
    assert.equal(metadata.jwks_uri, `${env.platform.url}/jwks`);
    assert.ok(metadata.grant_types_supported?.includes('client_credentials'));
  });

  it('runs client_credentials for a management token the Grants service recognises', async () => {
    const config = await discover(
      env.demo.credentialsId,
      env.demo.apiSecret,
      oidc.ClientSecretPost(env.demo.apiSecret),
    );
    const tokens = await oidc.clientCredentialsGrant(config, { scope: 'svc_admin_api' });
    assert.equal(tokens.token_type, 'bearer');
    assert.equal(tokens.scope, 'svc_admin_api');
    assert.equal(tokens.id_token, undefined);
    assert.ok((tokens.expires_in ?? 0) > 0);
    const info = await env.grants.introspectAccessToken({ accessToken: tokens.access_token });
    assert.equal(info.active, true);
    assert.equal(info.tenantId, env.demo.tenantId);
    assert.equal(info.credentialsId, env.demo.credentialsId);
  });

  it('redeems a code with PKCE and verifies the ID token signature against /jwks', async () => {
    const config = await discover(
      env.demo.clientId,
      env.demo.clientSecret,
      oidc.ClientSecretBasic(env.demo.clientSecret),
    );
    // The library's own switch to verify the ID token's JWS against jwks_uri (off by default for TLS responses).
    oidc.enableNonRepudiationChecks(config);
    const verifier = oidc.randomPKCECodeVerifier();
    const nonce = oidc.randomNonce();
    const { code } = await env.grants.issueCode({
      tenantId: env.demo.tenantId,
      appId: env.demo.appId,
      clientId: env.demo.clientId,
      redirectUri: env.demo.redirectUri,
      scope: 'openid email',
      codeChallenge: await oidc.calculatePKCECodeChallenge(verifier),
      codeChallengeMethod: 'S256',
      dpopJkt: '',
      flowId: 'rp-library-e2e',
      claims: authenticatedClaims(nonce),
    });
    const callback = new URL(env.demo.redirectUri);
    callback.searchParams.set('code', code);
    // What Sesame's redirect carries with every code (RFC 9207), now that discovery says so
    // (authorization_response_iss_parameter_supported), which makes the library require it.
    callback.searchParams.set('iss', config.serverMetadata().issuer);
    const tokens = await oidc.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: verifier,
      expectedNonce: nonce,
      idTokenExpected: true,
    });
    const claims = tokens.claims();
    assert.ok(claims);
    assert.equal(claims.iss, env.platform.url);
    assert.equal(claims.aud, env.demo.clientId);
    assert.equal(claims.nonce, nonce);
    assert.equal(claims.email, 'person@example.com');
    // And independently: jose against the published JWK set.
    const { payload, protectedHeader } = await jwtVerify(
      tokens.id_token!,
      createRemoteJWKSet(new URL(`${env.platform.url}/jwks`)),
      { issuer: env.platform.url, audience: env.demo.clientId, algorithms: ['RS256'] },
    );
    assert.equal(protectedHeader.alg, 'RS256');
    assert.equal(typeof protectedHeader.kid, 'string');
    assert.equal(typeof payload.svc_info, 'object');
  });
});
