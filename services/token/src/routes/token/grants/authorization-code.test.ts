import assert from 'node:assert/strict';
import { beforeAll, describe, it } from '@jest/globals';
import { sha256 } from '@sesame/platform';
import type { grants } from '@sesame/proto';
import { startedForSuite } from '@sesame/testing/suite';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { sampleClaims } from '../../../testing/sample-claims';
import { assertTokenMembers } from '../../../testing/token-answer';
import { TEST_ISSUER, basic, startTokenHarness } from '../../../testing/token-harness';

const REDIRECT = 'https://rp.example/cb';
const VERIFIER = 'dBjftJeZ4CK-P0mWp1u3jJqzdUFtFhPq0MDbP8hGdXk';

describe('authorization_code grant', () => {
  const h = startedForSuite(startTokenHarness);
  beforeAll(() => {
    h.directory.addClient({ clientId: 'conf', secret: 'conf-secret' });
    h.directory.addClient({ clientId: 'other', secret: 'other-secret' });
    h.directory.addClient({ clientId: 'pub' });
  });

  const issue = (over: Partial<grants.IssueCodeRequest> = {}) =>
    h.grants
      .issueCode({
        tenantId: 'tenant-1',
        appId: 'app-1',
        clientId: 'conf',
        redirectUri: REDIRECT,
        scope: 'openid email',
        codeChallenge: '',
        codeChallengeMethod: '',
        dpopJkt: '',
        flowId: 'flow-1',
        claims: sampleClaims({ email: 'j@example.com', emailVerified: true }),
        ...over,
      })
      .then((r) => r.code);
  const issuePkce = (clientId = 'pub') =>
    issue({ clientId, codeChallenge: sha256(VERIFIER), codeChallengeMethod: 'S256' });
  const redeem = (code: string, extra: Record<string, string> = {}, headers?: Record<string, string>) =>
    h.post({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, ...extra }, headers);

  const conf = { client_id: 'conf', client_secret: 'conf-secret' };
  const isActive = async (token: unknown) =>
    (await h.grants.introspectAccessToken({ accessToken: String(token) })).active;

  it('redeems a code with client_secret_post for access_token + verifiable RS256 ID token', async () => {
    const res = await redeem(await issue(), { client_id: 'conf', client_secret: 'conf-secret' });
    assertTokenMembers(res, ['access_token', 'expires_in', 'id_token', 'scope', 'token_type']);
    assert.equal(res.body.token_type, 'Bearer');
    assert.equal(res.body.expires_in, 3600);
    assert.equal(res.body.scope, 'openid email');
    assert.ok(Buffer.from(String(res.body.access_token), 'base64url').length >= 32);
    const idToken = String(res.body.id_token);
    assert.equal(decodeProtectedHeader(idToken).kid, h.keys.active.kid);
    const { payload } = await jwtVerify(idToken, createLocalJWKSet(await h.keys.jwks()), {
      issuer: TEST_ISSUER,
      audience: 'conf',
      algorithms: ['RS256'],
    });
    assert.equal(payload.email, 'j@example.com');
    assert.equal(payload.email_verified, true);
  });

  it('redeems with client_secret_basic', async () => {
    const res = await redeem(await issue(), {}, { authorization: basic('conf', 'conf-secret') });
    assert.equal(res.status, 200);
  });

  it('answers no-store headers on success', async () => {
    const res = await redeem(await issue(), { client_id: 'conf', client_secret: 'conf-secret' });
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    assert.equal(res.headers.get('pragma'), 'no-cache');
  });

  it('refuses both client_secret_basic and client_secret_post in one request: 400 invalid_request', async () => {
    const res = await redeem(
      await issue(),
      { client_id: 'conf', client_secret: 'conf-secret' },
      { authorization: basic('conf', 'conf-secret') },
    );
    assert.equal(res.status, 400);
    assert.equal(res.body.error, 'invalid_request');
  });

  it('refuses a wrong secret: 401 invalid_client with a Basic challenge', async () => {
    const res = await redeem(await issue(), { client_id: 'conf', client_secret: 'nope' });
    assert.equal(res.status, 401);
    assert.equal(res.body.error, 'invalid_client');
    assert.equal(res.headers.get('www-authenticate'), 'Basic realm="sesame"');
    assert.equal(res.headers.get('cache-control'), 'no-store');
  });

  it('refuses a confidential client that sends no secret for a code without a PKCE challenge: 401 invalid_client', async () => {
    const code = await issue();
    const res = await redeem(code, { client_id: 'conf' });
    assert.equal(res.status, 401);
    assert.equal(res.body.error, 'invalid_client');
    assert.equal((await redeem(code, conf)).status, 200, 'the refused request did not use the code up');
  });

  it("redeems a confidential client's PKCE code with the code_verifier alone, no secret (spec 5.1)", async () => {
    const code = await issuePkce('conf');
    const wrong = await redeem(code, { client_id: 'conf', code_verifier: `${VERIFIER.slice(0, -1)}A` });
    assert.deepEqual([wrong.status, wrong.body.error], [400, 'invalid_grant']);
    const res = await redeem(code, { client_id: 'conf', code_verifier: VERIFIER });
    assert.equal(res.status, 200);
    assert.equal(typeof res.body.id_token, 'string');
  });

  it('a used code without a PKCE challenge presented with no secret is invalid_client and revokes nothing', async () => {
    const code = await issue();
    const first = await redeem(code, conf);
    assert.equal(first.status, 200);
    const replay = await redeem(code, { client_id: 'conf' });
    assert.deepEqual([replay.status, replay.body.error], [401, 'invalid_client']);
    assert.equal(await isActive(first.body.access_token), true);
  });

  it('requires code and redirect_uri: 400 invalid_request', async () => {
    const res = await h.post({
      grant_type: 'authorization_code',
      client_id: 'conf',
      client_secret: 'conf-secret',
    });
    assert.equal(res.status, 400);
    assert.equal(res.body.error, 'invalid_request');
    assert.equal(res.body.error_description, 'code is required');
    const noRedirect = await h.post({ grant_type: 'authorization_code', code: await issue(), ...conf });
    assert.equal(noRedirect.status, 400);
    assert.deepEqual(noRedirect.body, {
      error: 'invalid_request',
      error_description: 'redirect_uri is required',
    });
    const unknownNoRedirect = await h.post({ grant_type: 'authorization_code', code: 'not-a-code', ...conf });
    assert.equal(unknownNoRedirect.body.error_description, 'redirect_uri is required');
  });

  it('refuses an unknown code: 400 invalid_grant', async () => {
    const res = await redeem('not-a-code', { client_id: 'conf', client_secret: 'conf-secret' });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, { error: 'invalid_grant', error_description: 'code is invalid or expired' });
  });

  it('refuses an expired code: 400 invalid_grant', async () => {
    const code = await issue();
    h.clock.advance(61_000);
    const res = await redeem(code, { client_id: 'conf', client_secret: 'conf-secret' });
    assert.equal(res.status, 400);
    assert.equal(res.body.error, 'invalid_grant');
  });

  it("refuses another client's code: 400 invalid_grant", async () => {
    const res = await redeem(await issue(), { client_id: 'other', client_secret: 'other-secret' });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, {
      error: 'invalid_grant',
      error_description: 'code was not issued to this client',
    });
  });

  it('refuses a redirect_uri that is not the exact string of the request (trailing slash): invalid_grant', async () => {
    const res = await redeem(await issue(), {
      client_id: 'conf',
      client_secret: 'conf-secret',
      redirect_uri: `${REDIRECT}/`,
    });
    assert.equal(res.status, 400);
    assert.equal(res.body.error_description, 'redirect_uri does not match the authorization request');
  });

  it('redeems a public client code with a correct PKCE S256 verifier and no secret', async () => {
    const res = await redeem(await issuePkce(), { client_id: 'pub', code_verifier: VERIFIER });
    assert.equal(res.status, 200);
    assert.equal(typeof res.body.id_token, 'string');
  });

  it('refuses a wrong PKCE verifier: invalid_grant', async () => {
    const res = await redeem(await issuePkce(), {
      client_id: 'pub',
      code_verifier: `${VERIFIER.slice(0, -1)}A`,
    });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, { error: 'invalid_grant', error_description: 'PKCE verification failed' });
  });

  it('refuses a missing PKCE verifier: invalid_grant', async () => {
    const res = await redeem(await issuePkce(), { client_id: 'pub' });
    assert.equal(res.status, 400);
    assert.equal(res.body.error_description, 'code_verifier is required for this code');
  });

  it('refuses a public client code issued without a PKCE challenge: invalid_grant', async () => {
    const res = await redeem(await issue({ clientId: 'pub' }), { client_id: 'pub' });
    assert.equal(res.status, 400);
    assert.equal(res.body.error_description, 'a public client must use PKCE');
  });

  it('checks PKCE for confidential clients too when the code has a challenge', async () => {
    const code = await issuePkce('conf');
    const bad = await redeem(code, {
      client_id: 'conf',
      client_secret: 'conf-secret',
      code_verifier: 'x'.repeat(43),
    });
    assert.equal(bad.body.error, 'invalid_grant');
  });

  it('a replayed code fails with invalid_grant and revokes the access token issued from it', async () => {
    const code = await issue();
    const auth = { client_id: 'conf', client_secret: 'conf-secret' };
    const first = await redeem(code, auth);
    assert.equal(first.status, 200);
    const token = String(first.body.access_token);
    assert.equal((await h.grants.introspectAccessToken({ accessToken: token })).active, true);
    const replay = await redeem(code, auth);
    assert.equal(replay.status, 400);
    assert.deepEqual(replay.body, { error: 'invalid_grant', error_description: 'code was already used' });
    assert.equal((await h.grants.introspectAccessToken({ accessToken: token })).active, false);
  });

  it('does not use up a code presented by another client: the rightful client still redeems it', async () => {
    const code = await issue();
    const stolen = await redeem(code, { client_id: 'other', client_secret: 'other-secret' });
    assert.equal(stolen.body.error_description, 'code was not issued to this client');
    assert.equal((await redeem(code, conf)).status, 200);
  });

  it('does not use up a code presented with another redirect_uri or a wrong PKCE verifier', async () => {
    const code = await issuePkce('conf');
    const wrongUri = await redeem(code, { ...conf, code_verifier: VERIFIER, redirect_uri: `${REDIRECT}/x` });
    assert.equal(wrongUri.body.error_description, 'redirect_uri does not match the authorization request');
    const wrongVerifier = await redeem(code, { ...conf, code_verifier: `${VERIFIER.slice(0, -1)}A` });
    assert.equal(wrongVerifier.body.error_description, 'PKCE verification failed');
    assert.equal((await redeem(code, { ...conf, code_verifier: VERIFIER })).status, 200);
  });

  it('a used code presented by another client, redirect_uri or verifier revokes nothing', async () => {
    const code = await issuePkce('conf');
    const first = await redeem(code, { ...conf, code_verifier: VERIFIER });
    assert.equal(first.status, 200);
    const replays = [
      await redeem(code, { client_id: 'other', client_secret: 'other-secret', code_verifier: VERIFIER }),
      await redeem(code, { ...conf, code_verifier: VERIFIER, redirect_uri: `${REDIRECT}/x` }),
      await redeem(code, { ...conf, code_verifier: `${VERIFIER.slice(0, -1)}A` }),
    ];
    assert.deepEqual(
      replays.map((r) => [r.status, r.body.error]),
      [
        [400, 'invalid_grant'],
        [400, 'invalid_grant'],
        [400, 'invalid_grant'],
      ],
    );
    assert.equal(await isActive(first.body.access_token), true);
    const rightful = await redeem(code, { ...conf, code_verifier: VERIFIER });
    assert.equal(rightful.body.error_description, 'code was already used');
    assert.equal(await isActive(first.body.access_token), false);
  });

  // Exactly one claim wins (grants/codes.test.ts); the winner may still lose its tokens to a replay that
  // lands while it issues them, so over HTTP the guarantee is at most one success and no live token.
  it('of concurrent redemptions of one code at most one succeeds, the rest are invalid_grant, and no access token stays valid', async () => {
    const code = await issue();
    const auth = { client_id: 'conf', client_secret: 'conf-secret' };
    const answers = await Promise.all(Array.from({ length: 8 }, () => redeem(code, auth)));
    const ok = answers.filter((a) => a.status === 200);
    assert.ok(ok.length <= 1, `${ok.length} redemptions succeeded`);
    assert.equal(answers.filter((a) => a.body.error === 'invalid_grant').length, 8 - ok.length);
    for (const a of ok) {
      const active = await h.grants.introspectAccessToken({ accessToken: String(a.body.access_token) });
      assert.equal(active.active, false);
    }
  });
});
