import assert from 'node:assert/strict';
import { beforeAll, describe, it } from '@jest/globals';
import { JWT_BEARER_ASSERTION_TYPE } from '@sesame/oauth';
import { sha256 } from '@sesame/platform';
import { startedForSuite } from '@sesame/testing/suite';
import { type CryptoKey, type JWK, SignJWT, exportJWK, generateKeyPair } from 'jose';
import { TEST_ISSUER, basic, issueTestCode, postToken, startTokenHarness } from '../../testing/token-harness';

const REDIRECT = 'https://rp.example/cb';
const VERIFIER = 'dBjftJeZ4CK-P0mWp1u3jJqzdUFtFhPq0MDbP8hGdXk';

/** /token, /revoke and /introspect through token's real HTTP app, with a private_key_jwt client. */
describe('private_key_jwt at token endpoints', () => {
  const h = startedForSuite(startTokenHarness);
  let key: { privateKey: CryptoKey; jwk: JWK };
  beforeAll(async () => {
    const pair = await generateKeyPair('ES256', { extractable: true });
    key = { privateKey: pair.privateKey, jwk: { ...(await exportJWK(pair.publicKey)), kid: 'k1' } };
    h.directory.addClient({
      clientId: 'keyed',
      // The fake Directory would accept this secret: token must still refuse it for a private_key_jwt app.
      secret: 'keyed-secret',
      tokenEndpointAuthMethod: 'private_key_jwt',
      jwks: JSON.stringify({ keys: [key.jwk] }),
    });
    h.directory.addClient({ clientId: 'secretive', secret: 'secretive-secret' });
  });

  const assertion = (claims: Record<string, unknown> = {}, clientId = 'keyed') => {
    const nowS = Math.floor(h.clock.now() / 1000);
    return new SignJWT({
      iss: clientId,
      sub: clientId,
      aud: TEST_ISSUER,
      exp: nowS + 60,
      jti: `${Math.random()}`,
      ...claims,
    })
      .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
      .sign(key.privateKey);
  };
  const withAssertion = (jwt: string) => ({
    client_assertion_type: JWT_BEARER_ASSERTION_TYPE,
    client_assertion: jwt,
  });
  const issue = (clientId = 'keyed', challenge = '') =>
    issueTestCode(h, clientId, REDIRECT, {
      appId: 'app-1',
      codeChallenge: challenge,
      codeChallengeMethod: challenge ? 'S256' : '',
    });
  const redeem = (code: string, extra: Record<string, string>, headers?: Record<string, string>) =>
    h.post({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, ...extra }, headers);
  const refusal = (res: { status: number; headers: Headers; body: Record<string, unknown> }) => ({
    status: res.status,
    error: res.body.error,
    description: res.body.error_description,
    challenge: res.headers.get('www-authenticate'),
  });

  it('redeems a code with a signed assertion (aud the issuer, or the token endpoint URL)', async () => {
    for (const aud of [TEST_ISSUER, `${TEST_ISSUER}/token`]) {
      const res = await redeem(await issue(), withAssertion(await assertion({ aud })));
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(typeof res.body.access_token, 'string');
    }
  });

  it('refuses the same assertion twice: 401 invalid_client', async () => {
    const jwt = await assertion();
    assert.equal((await redeem(await issue(), withAssertion(jwt))).status, 200);
    assert.deepEqual(refusal(await redeem(await issue(), withAssertion(jwt))), {
      status: 401,
      error: 'invalid_client',
      description: 'client_assertion jti has already been used',
      challenge: 'Basic realm="sesame"',
    });
  });

  it('refuses an expired assertion and one for another audience', async () => {
    const nowS = Math.floor(h.clock.now() / 1000);
    const expired = await redeem(await issue(), withAssertion(await assertion({ exp: nowS - 120 })));
    assert.deepEqual([expired.status, expired.body.error_description], [401, 'client_assertion has expired']);
    const elsewhere = await redeem(
      await issue(),
      withAssertion(await assertion({ aud: 'https://op.example' })),
    );
    assert.deepEqual(
      [elsewhere.status, elsewhere.body.error_description],
      [401, 'client_assertion aud must be the issuer or the token endpoint URL'],
    );
  });

  it("refuses the app's secret, Basic or in the body, and a PKCE exchange without the assertion", async () => {
    const post = await redeem(await issue(), { client_id: 'keyed', client_secret: 'keyed-secret' });
    assert.deepEqual([post.status, post.body.error], [401, 'invalid_client']);
    const viaBasic = await redeem(await issue(), {}, { authorization: basic('keyed', 'keyed-secret') });
    assert.deepEqual([viaBasic.status, viaBasic.body.error], [401, 'invalid_client']);
    const pkceOnly = await redeem(await issue('keyed', sha256(VERIFIER)), {
      client_id: 'keyed',
      code_verifier: VERIFIER,
    });
    assert.deepEqual([pkceOnly.status, pkceOnly.body.error], [401, 'invalid_client']);
  });

  it('refuses an assertion from a client registered for its secret', async () => {
    const res = await redeem(await issue('secretive'), withAssertion(await assertion({}, 'secretive')));
    assert.deepEqual(refusal(res).description, 'the client is not registered for private_key_jwt');
    assert.equal(res.status, 401);
  });

  it('authenticates /introspect and /revoke with an assertion', async () => {
    const tokens = await redeem(await issue(), withAssertion(await assertion()));
    const token = String(tokens.body.access_token);
    const introspected = await postToken(`${h.url}/introspect`, {
      token,
      ...withAssertion(await assertion()),
    });
    assert.deepEqual([introspected.status, introspected.body.active], [200, true]);
    const revoked = await fetch(`${h.url}/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token, ...withAssertion(await assertion()) }).toString(),
    });
    assert.equal(revoked.status, 200);
    const after = await postToken(`${h.url}/introspect`, { token, ...withAssertion(await assertion()) });
    assert.equal(after.body.active, false);
  });
});
