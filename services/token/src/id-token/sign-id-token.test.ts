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
