import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { describe, it } from '@jest/globals';
import { GrpcError, GrpcStatus } from '@sesame/platform';
import { signLogoutTokenRpc, verifySignatureRpc } from './logout-rpcs';

const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const request = {
  issuer: 'https://auth.example',
  audience: 'client-1',
  sub: 'u1',
  sid: 's1',
  ttlS: 120,
  alg: '',
};
const invalidArgument = (err: unknown) =>
  err instanceof GrpcError && err.code === GrpcStatus.INVALID_ARGUMENT;

describe('Keys.SignLogoutToken and Keys.VerifySignature', () => {
  const sign = signLogoutTokenRpc(
    { signingKey: () => ({ kid: 'k1', alg: 'RS256', key: privateKey }) },
    () => 1_700_000_000_000,
  );
  const verify = verifySignatureRpc({
    verificationKey: (kid) => (kid === 'k1' ? { key: publicKey, alg: 'RS256' } : undefined),
  });

  it('a signed logout token verifies, with its claims', async () => {
    const { logoutToken, jti } = await sign(request);
    const { payload, kid } = await verify({ jws: logoutToken });
    assert.equal(kid, 'k1');
    const claims = JSON.parse(payload);
    assert.deepEqual(
      [claims.iss, claims.aud, claims.sub, claims.sid, claims.jti],
      ['https://auth.example', 'client-1', 'u1', 's1', jti],
    );
    assert.equal(claims.exp - claims.iat, 120);
  });

  it('refuses a request without issuer, audience or both sub and sid, or with a lifetime out of 1..600 s', async () => {
    for (const bad of [
      { ...request, issuer: '' },
      { ...request, audience: '' },
      { ...request, sub: '', sid: '' },
      { ...request, ttlS: 0 },
      { ...request, ttlS: 601 },
    ]) {
      await assert.rejects(sign(bad), invalidArgument, JSON.stringify(bad));
    }
  });

  it("signs with the key of the requested alg (the app's ID token alg); an alg it does not sign with is INVALID_ARGUMENT", async () => {
    const asked: string[] = [];
    const byAlg = signLogoutTokenRpc(
      {
        signingKey: (alg = 'RS256') => {
          asked.push(alg);
          return { kid: `k-${alg}`, alg: 'RS256', key: privateKey };
        },
      },
      () => 1_700_000_000_000,
    );
    await byAlg(request);
    await byAlg({ ...request, alg: 'ES256' });
    assert.deepEqual(asked, ['RS256', 'ES256']);
    for (const alg of ['HS256', 'none', 'RS512'])
      await assert.rejects(byAlg({ ...request, alg }), invalidArgument, alg);
    assert.equal(asked.length, 2);
  });

  it('is UNAVAILABLE before a signing key exists; a JWS no key verifies is INVALID_ARGUMENT', async () => {
    const noKey = signLogoutTokenRpc({ signingKey: () => undefined });
    await assert.rejects(
      noKey(request),
      (err: unknown) => err instanceof GrpcError && err.code === GrpcStatus.UNAVAILABLE,
    );
    await assert.rejects(verify({ jws: 'a.b.c' }), invalidArgument);
  });
});
