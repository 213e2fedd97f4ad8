import assert from 'node:assert/strict';
import { beforeAll, describe, it } from '@jest/globals';
import { JWT_BEARER_ASSERTION_TYPE } from '@sesame/oauth';
import { sha256 } from '@sesame/platform';
import { startedForSuite } from '@sesame/testing/suite';
import { type CryptoKey, type JWK, SignJWT, exportJWK, generateKeyPair } from 'jose';
import { type DpopKey, dpopKey } from '../../testing/dpop-proof';
import { TEST_ISSUER, issueTestCode, startTokenHarness } from '../../testing/token-harness';

const REDIRECT = 'https://rp.example/cb';
const VERIFIER = 'dBjftJeZ4CK-P0mWp1u3jJqzdUFtFhPq0MDbP8hGdXk';
const TOKEN_URL = `${TEST_ISSUER}/token`;
const refreshable = { enabled: true, absoluteLifetimeS: 86400, idleLifetimeS: 3600 };

/** The FAPI 2.0 profile's rules at /token, through token's real HTTP app. */
describe('the FAPI 2.0 profile at /token', () => {
  // Codes live 10 minutes in this deployment: only the profile holds a FAPI 2.0 app's to 60 s.
  const h = startedForSuite(() => startTokenHarness({ env: { SESAME_CODE_TTL_S: '600' } }));
  let key: { privateKey: CryptoKey; jwk: JWK };
  let dpop: DpopKey;
  beforeAll(async () => {
    const pair = await generateKeyPair('ES256', { extractable: true });
    key = { privateKey: pair.privateKey, jwk: { ...(await exportJWK(pair.publicKey)), kid: 'k1' } };
    dpop = await dpopKey('ES256');
    const jwks = JSON.stringify({ keys: [key.jwk] });
    h.directory.addClient({
      clientId: 'fapi',
      tokenEndpointAuthMethod: 'private_key_jwt',
      jwks,
      securityProfile: 'fapi2',
      refreshTokens: refreshable,
    });
    h.directory.addClient({ clientId: 'keyed', tokenEndpointAuthMethod: 'private_key_jwt', jwks });
    // Registration never lets a FAPI 2.0 app keep its secret; token refuses one all the same.
    h.directory.addClient({ clientId: 'fapi-secret', secret: 'fapi-secret-s', securityProfile: 'fapi2' });
  });

  const assertion = async (clientId = 'fapi', aud: string | string[] = TEST_ISSUER) => {
    const nowS = Math.floor(h.clock.now() / 1000);
    const jwt = await new SignJWT({ iss: clientId, sub: clientId, aud, exp: nowS + 60 })
      .setJti(`${Math.random()}`)
      .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
      .sign(key.privateKey);
    return { client_assertion_type: JWT_BEARER_ASSERTION_TYPE, client_assertion: jwt };
  };
  const proof = () => dpop.proof('POST', TOKEN_URL, h.clock.now());
  const issue = (clientId = 'fapi') =>
    issueTestCode(h, clientId, REDIRECT, {
      scope: 'openid offline_access',
      codeChallenge: sha256(VERIFIER),
      codeChallengeMethod: 'S256',
    });
  const redeem = async (code: string, headers: Record<string, string>, clientId = 'fapi') =>
    h.post(
      {
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT,
        code_verifier: VERIFIER,
        ...(await assertion(clientId)),
      },
      headers,
    );

  it('issues DPoP-bound tokens to a FAPI 2.0 app that sends a proof', async () => {
    const answer = await redeem(await issue(), { dpop: await proof() });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.equal(answer.body.token_type, 'DPoP');
  });

  it('refuses a token request without a DPoP proof: invalid_dpop_proof, the code not used up', async () => {
    const code = await issue();
    const answer = await redeem(code, {});
    assert.deepEqual(
      [answer.status, answer.body.error, answer.body.error_description],
      [
        400,
        'invalid_dpop_proof',
        'the FAPI 2.0 profile issues only sender-constrained tokens: send a DPoP proof (DPoP header)',
      ],
    );
    assert.equal((await redeem(code, { dpop: await proof() })).status, 200);
    // The same app without the profile gets a Bearer token.
    const bearer = await redeem(await issue('keyed'), {}, 'keyed');
    assert.equal(bearer.body.token_type, 'Bearer');
  });

  it('refuses a code older than 60 seconds with invalid_grant', async () => {
    const code = await issue();
    h.clock.advance(61_000);
    const answer = await redeem(code, { dpop: await proof() });
    assert.deepEqual(
      [answer.status, answer.body.error, answer.body.error_description],
      [400, 'invalid_grant', 'the code has expired (the FAPI 2.0 profile: 60 seconds)'],
    );
    const inTime = await issue();
    h.clock.advance(59_000);
    assert.equal((await redeem(inTime, { dpop: await proof() })).status, 200);
    // The deployment's 10 minutes still hold for an app without the profile.
    const keyed = await issue('keyed');
    h.clock.advance(120_000);
    assert.equal((await redeem(keyed, {}, 'keyed')).status, 200);
  });

  it('refuses the client secret and the client_id alone with invalid_client', async () => {
    const code = await issue('fapi-secret');
    const form = { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: VERIFIER };
    const withSecret = await h.post(
      { ...form, client_id: 'fapi-secret', client_secret: 'fapi-secret-s' },
      { dpop: await proof() },
    );
    assert.deepEqual(
      [withSecret.status, withSecret.body.error, withSecret.body.error_description],
      [
        401,
        'invalid_client',
        'the FAPI 2.0 profile accepts only private_key_jwt or mutual TLS client authentication',
      ],
    );
    const idAlone = await h.post({ ...form, client_id: 'fapi-secret' }, { dpop: await proof() });
    assert.deepEqual([idAlone.status, idAlone.body.error], [401, 'invalid_client']);
  });

  it('takes only the issuer, as a string, as the assertion aud (the token endpoint URL is for other apps)', async () => {
    const code = await issue();
    const form = { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: VERIFIER };
    const description = 'client_assertion aud must be the issuer, as a string (the FAPI 2.0 profile)';
    for (const aud of [TOKEN_URL, [TEST_ISSUER]]) {
      const answer = await h.post({ ...form, ...(await assertion('fapi', aud)) }, { dpop: await proof() });
      assert.deepEqual(
        [answer.status, answer.body.error, answer.body.error_description],
        [401, 'invalid_client', description],
      );
    }
    const keyed = await h.post(
      { ...form, code: await issue('keyed'), ...(await assertion('keyed', TOKEN_URL)) },
      {},
    );
    assert.equal(keyed.status, 200, JSON.stringify(keyed.body));
    assert.equal((await h.post({ ...form, ...(await assertion()) }, { dpop: await proof() })).status, 200);
  });

  it('does not rotate refresh tokens: the same token refreshes again, and stays sender-constrained', async () => {
    const first = await redeem(await issue(), { dpop: await proof() });
    const refreshToken = String(first.body.refresh_token);
    const refresh = async (headers: Record<string, string>) =>
      h.post({ grant_type: 'refresh_token', refresh_token: refreshToken, ...(await assertion()) }, headers);
    const once = await refresh({ dpop: await proof() });
    assert.equal(once.status, 200, JSON.stringify(once.body));
    assert.equal(once.body.refresh_token, refreshToken);
    assert.equal(once.body.token_type, 'DPoP');
    assert.notEqual(once.body.access_token, first.body.access_token);
    // A client that lost that answer retries with the same token (FAPI 2.0 §5.3.2.1).
    const again = await refresh({ dpop: await proof() });
    assert.equal(again.status, 200, JSON.stringify(again.body));
    assert.equal(again.body.refresh_token, refreshToken);
    const noProof = await refresh({});
    assert.deepEqual([noProof.status, noProof.body.error], [400, 'invalid_dpop_proof']);
  });
});
