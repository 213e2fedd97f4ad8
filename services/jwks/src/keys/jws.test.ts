import assert from 'node:assert/strict';
import { constants, generateKeyPairSync, sign } from 'node:crypto';
import { describe, it } from '@jest/globals';
import { createLocalJWKSet, jwtVerify } from 'jose';
import { BACKCHANNEL_LOGOUT_EVENT, JwsError, signLogoutToken, verifyJws } from './jws';

const published = generateKeyPairSync('rsa', { modulusLength: 2048 });
const other = generateKeyPairSync('rsa', { modulusLength: 2048 });
const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const keyOf = (kid: string) =>
  kid === 'k1'
    ? { key: published.publicKey, alg: 'RS256' }
    : kid === 'ps'
      ? { key: published.publicKey, alg: 'PS256' }
      : kid === 'es'
        ? { key: ec.publicKey, alg: 'ES256' }
        : undefined;
const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

function jws(header: Record<string, unknown>, payload: unknown, key = published.privateKey): string {
  const input = `${b64(header)}.${b64(payload)}`;
  return `${input}.${sign('sha256', Buffer.from(input), key).toString('base64url')}`;
}

describe('verifyJws (Keys.VerifySignature)', () => {
  it('returns the payload of a JWS signed by a published key', () => {
    const token = jws({ alg: 'RS256', kid: 'k1' }, { sub: 'u1' });
    assert.deepEqual(verifyJws(token, keyOf), { payload: '{"sub":"u1"}', kid: 'k1' });
  });

  it('refuses a forged signature, an unknown kid, alg none or HS256, and what is not a JWS', () => {
    const refused = [
      jws({ alg: 'RS256', kid: 'k1' }, { sub: 'u1' }, other.privateKey),
      jws({ alg: 'RS256', kid: 'k9' }, { sub: 'u1' }),
      `${b64({ alg: 'none', kid: 'k1' })}.${b64({ sub: 'u1' })}.x`,
      `${b64({ alg: 'HS256', kid: 'k1' })}.${b64({ sub: 'u1' })}.x`,
      'not-a-jws',
      `${jws({ alg: 'RS256', kid: 'k1' }, { sub: 'u1' })}x`,
      'a'.repeat(20_000),
    ];
    for (const token of refused) assert.throws(() => verifyJws(token, keyOf), JwsError, token.slice(0, 40));
  });

  it('verifies PS256 and ES256 JWSs with the published key of that alg (jose signs them)', async () => {
    const { SignJWT } = await import('jose');
    const ps = await new SignJWT({ sub: 'u2' })
      .setProtectedHeader({ alg: 'PS256', kid: 'ps' })
      .sign(published.privateKey);
    const es = await new SignJWT({ sub: 'u3' })
      .setProtectedHeader({ alg: 'ES256', kid: 'es' })
      .sign(ec.privateKey);
    assert.deepEqual(verifyJws(ps, keyOf), { payload: '{"sub":"u2"}', kid: 'ps' });
    assert.deepEqual(verifyJws(es, keyOf), { payload: '{"sub":"u3"}', kid: 'es' });
  });

  it('refuses a key used under another alg than its own: RS256 header on the PS256 key, PS256 on the RS256 key', () => {
    const pss = (header: Record<string, unknown>) => {
      const input = `${b64(header)}.${b64({ sub: 'u1' })}`;
      const signature = sign('sha256', Buffer.from(input), {
        key: published.privateKey,
        padding: constants.RSA_PKCS1_PSS_PADDING,
        saltLength: 32,
      });
      return `${input}.${signature.toString('base64url')}`;
    };
    assert.throws(
      () => verifyJws(jws({ alg: 'RS256', kid: 'ps' }, { sub: 'u1' }), keyOf),
      /signs PS256, not RS256/,
    );
    assert.throws(() => verifyJws(pss({ alg: 'PS256', kid: 'k1' }), keyOf), /signs RS256, not PS256/);
    assert.equal(verifyJws(pss({ alg: 'PS256', kid: 'ps' }), keyOf).kid, 'ps');
  });

  it('refuses a payload changed after signing', () => {
    const [head, , sig] = jws({ alg: 'RS256', kid: 'k1' }, { sub: 'u1' }).split('.');
    assert.throws(() => verifyJws(`${head}.${b64({ sub: 'admin' })}.${sig}`, keyOf), /does not verify/);
  });
});

describe('signLogoutToken (Keys.SignLogoutToken)', () => {
  it('is a Back-Channel Logout 1.0 logout token that jose verifies with the published JWK', async () => {
    const nowMs = Date.now();
    const { token, jti } = signLogoutToken(
      { kid: 'k1', alg: 'RS256', key: published.privateKey },
      { issuer: 'https://auth.example', audience: 'client-1', sub: 'u1', sid: 's1', ttlS: 120, nowMs },
    );
    const jwk = { ...published.publicKey.export({ format: 'jwk' }), kid: 'k1', alg: 'RS256', use: 'sig' };
    const { payload, protectedHeader } = await jwtVerify(token, createLocalJWKSet({ keys: [jwk] }), {
      issuer: 'https://auth.example',
      audience: 'client-1',
      typ: 'logout+jwt',
      algorithms: ['RS256'],
    });
    assert.equal(protectedHeader.kid, 'k1');
    assert.deepEqual(payload, {
      iss: 'https://auth.example',
      aud: 'client-1',
      iat: Math.floor(nowMs / 1000),
      exp: Math.floor(nowMs / 1000) + 120,
      jti,
      sub: 'u1',
      sid: 's1',
      events: { [BACKCHANNEL_LOGOUT_EVENT]: {} },
    });
    assert.equal('nonce' in payload, false);
  });

  it('signs with the ES256 key when asked for ES256 (an app whose ID tokens are ES256)', async () => {
    const { token } = signLogoutToken(
      { kid: 'es', alg: 'ES256', key: ec.privateKey },
      { issuer: 'i', audience: 'a', sid: 's1', ttlS: 60, nowMs: Date.now() },
    );
    const jwk = { ...ec.publicKey.export({ format: 'jwk' }), kid: 'es', alg: 'ES256', use: 'sig' };
    const { protectedHeader } = await jwtVerify(token, createLocalJWKSet({ keys: [jwk] }), {
      typ: 'logout+jwt',
      algorithms: ['ES256'],
    });
    assert.deepEqual(protectedHeader, { alg: 'ES256', kid: 'es', typ: 'logout+jwt' });
  });

  it('needs sub or sid', () => {
    assert.throws(
      () =>
        signLogoutToken(
          { kid: 'k1', alg: 'RS256', key: published.privateKey },
          { issuer: 'i', audience: 'a', ttlS: 60, nowMs: 0 },
        ),
      JwsError,
    );
  });
});
