import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { KeyRing } from '../keys/key-ring';
import { FakeKeys } from '../testing/fake-keys';
import { sampleClaims } from '../testing/sample-claims';
import { buildIdTokenClaims } from './claims';
import { signIdToken } from './sign-id-token';

describe('signIdToken', () => {
  it('produces an RS256 compact JWS with kid and typ that jose verifies against the JWK set, claims intact', async () => {
    const keys = new FakeKeys();
    const ring = new KeyRing();
    const k = keys.active;
    await ring.accept({ kid: k.kid, alg: 'RS256', privateKeyPem: k.privateKeyPem, activatedAt: 0 });
    const claims = buildIdTokenClaims({
      issuer: 'https://auth.sesame.test',
      clientId: 'client-é',
      scope: 'openid',
      claims: sampleClaims({ alias: 'ünïcødé ✓' }),
      nowMs: Date.now(),
      ttlS: 60,
    });
    const jwt = await signIdToken(ring, claims);
    assert.deepEqual(decodeProtectedHeader(jwt), { alg: 'RS256', kid: k.kid, typ: 'JWT' });
    const { payload } = await jwtVerify(jwt, createLocalJWKSet(await keys.jwks()), { algorithms: ['RS256'] });
    assert.deepEqual(payload, JSON.parse(JSON.stringify(claims)));
  });

  it('signs PS256 and ES256 with the ring key of that alg; jose verifies each with only its alg allowed', async () => {
    const keys = new FakeKeys();
    const ring = new KeyRing();
    for (const k of keys.others)
      await ring.accept({ kid: k.kid, alg: k.alg, privateKeyPem: k.privateKeyPem, activatedAt: 0 });
    const claims = buildIdTokenClaims({
      issuer: 'https://auth.sesame.test',
      clientId: 'c',
      scope: 'openid',
      claims: sampleClaims(),
      nowMs: Date.now(),
      ttlS: 60,
    });
    const jwks = createLocalJWKSet(await keys.jwks());
    for (const k of keys.others) {
      // Several: ECDSA and PSS signatures are randomized, and an R||S of the wrong length shows only sometimes.
      for (let i = 0; i < 5; i++) {
        const jwt = await signIdToken(ring, claims, k.alg);
        assert.deepEqual(decodeProtectedHeader(jwt), { alg: k.alg, kid: k.kid, typ: 'JWT' });
        const { payload } = await jwtVerify(jwt, jwks, { algorithms: [k.alg] });
        assert.deepEqual(payload, JSON.parse(JSON.stringify(claims)));
      }
    }
    assert.throws(() => ring.current('RS256'), /no RS256 signing key/, 'no fallback to another alg');
  });

  it('refuses a key that does not fit its alg: RSA under ES256, P-384 under ES256, EC under PS256', async () => {
    const { generateKeyPairSync } = await import('node:crypto');
    const pemOf = (pair: { privateKey: import('node:crypto').KeyObject }) =>
      pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const rsa = pemOf(generateKeyPairSync('rsa', { modulusLength: 2048 }));
    const p384 = pemOf(generateKeyPairSync('ec', { namedCurve: 'P-384' }));
    const p256 = pemOf(generateKeyPairSync('ec', { namedCurve: 'P-256' }));
    await assert.rejects(
      new KeyRing().accept({ kid: 'a', alg: 'ES256', privateKeyPem: rsa, activatedAt: 0 }),
      /P-256/,
    );
    await assert.rejects(
      new KeyRing().accept({ kid: 'b', alg: 'ES256', privateKeyPem: p384, activatedAt: 0 }),
      /P-256/,
    );
    await assert.rejects(
      new KeyRing().accept({ kid: 'c', alg: 'PS256', privateKeyPem: p256, activatedAt: 0 }),
      /RSA private key of at least 2048 bits/,
    );
  });

  it('refuses a key that is not RSA-2048 or larger: an EC key and an RSA-1024 key', async () => {
    const { generateKeyPairSync } = await import('node:crypto');
    const pemOf = (pair: { privateKey: import('node:crypto').KeyObject }) =>
      pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const ec = pemOf(generateKeyPairSync('ec', { namedCurve: 'P-256' }));
    const rsa1024 = pemOf(generateKeyPairSync('rsa', { modulusLength: 1024 }));
    for (const [kid, pem] of [
      ['ec', ec],
      ['rsa-1024', rsa1024],
    ] as const) {
      await assert.rejects(
        new KeyRing().accept({ kid, alg: 'RS256', privateKeyPem: pem, activatedAt: 0 }),
        /RSA private key of at least 2048 bits/,
        kid,
      );
    }
  });
});
