import assert from 'node:assert/strict';
import { beforeAll, describe, it } from '@jest/globals';
import { startedForSuite } from '@sesame/testing/suite';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { TEST_ISSUER, issueTestCode, startTokenHarness } from '../../../testing/token-harness';

const REDIRECT = 'https://rp.example/cb';

const codeFor = (h: Awaited<ReturnType<typeof startTokenHarness>>, clientId: string) =>
  issueTestCode(h, clientId, REDIRECT);

const redeem = async (h: Awaited<ReturnType<typeof startTokenHarness>>, clientId: string) =>
  h.post({
    grant_type: 'authorization_code',
    code: await codeFor(h, clientId),
    redirect_uri: REDIRECT,
    client_id: clientId,
    client_secret: `${clientId}-secret`,
  });

describe('ID token alg per application (id_token_signed_response_alg)', () => {
  const h = startedForSuite(startTokenHarness);
  beforeAll(() => {
    h.directory.addClient({ clientId: 'default', secret: 'default-secret' });
    h.directory.addClient({ clientId: 'rs', secret: 'rs-secret', idTokenSignedResponseAlg: 'RS256' });
    h.directory.addClient({ clientId: 'ps', secret: 'ps-secret', idTokenSignedResponseAlg: 'PS256' });
    h.directory.addClient({ clientId: 'es', secret: 'es-secret', idTokenSignedResponseAlg: 'ES256' });
  });

  for (const [clientId, alg] of [
    ['default', 'RS256'],
    ['rs', 'RS256'],
    ['ps', 'PS256'],
    ['es', 'ES256'],
  ] as const) {
    it(`signs the ID token of an app set to ${clientId === 'default' ? 'nothing' : alg} with the ${alg} key; jose verifies it against the JWK set with only ${alg} allowed`, async () => {
      const res = await redeem(h, clientId);
      assert.equal(res.status, 200);
      const idToken = String(res.body.id_token);
      const jwks = await h.keys.jwks();
      const kid = jwks.keys.find((k) => k.alg === alg)?.kid;
      assert.deepEqual(decodeProtectedHeader(idToken), { alg, kid, typ: 'JWT' });
      const { payload } = await jwtVerify(idToken, createLocalJWKSet(jwks), {
        issuer: TEST_ISSUER,
        audience: clientId,
        algorithms: [alg],
      });
      assert.equal(payload.aud, clientId);
    });
  }

  it('an ES256 app never gets a token of another alg: an RP that accepts only ES256 refuses nothing', async () => {
    for (let i = 0; i < 5; i++) {
      const res = await redeem(h, 'es');
      assert.equal(decodeProtectedHeader(String(res.body.id_token)).alg, 'ES256');
    }
  });
});

describe("ID token alg when the Keys service has no key of the app's alg", () => {
  const h = startedForSuite(() => startTokenHarness({ keyAlgs: [] }));
  beforeAll(() => {
    h.directory.addClient({ clientId: 'es', secret: 'es-secret', idTokenSignedResponseAlg: 'ES256' });
    h.directory.addClient({ clientId: 'rs', secret: 'rs-secret' });
  });

  it('answers 503 temporarily_unavailable with Retry-After and no tokens, never an RS256 token instead', async () => {
    const res = await redeem(h, 'es');
    assert.equal(res.status, 503);
    assert.equal(res.body.error, 'temporarily_unavailable');
    assert.equal(res.headers.get('retry-after'), '1');
    assert.equal(res.body.id_token, undefined);
    assert.equal(res.body.access_token, undefined);
    assert.equal((await redeem(h, 'rs')).status, 200, 'the RS256 apps are served');
  });
});
