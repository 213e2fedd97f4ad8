import assert from 'node:assert/strict';
import { generateKeyPairSync, sign } from 'node:crypto';
import { describe, it } from '@jest/globals';
import { createLocalJWKSet, jwtVerify } from 'jose';
import { BACKCHANNEL_LOGOUT_EVENT, JwsError, signLogoutToken, verifyRs256 } from './jws';

const published = generateKeyPairSync('rsa', { modulusLength: 2048 });
const other = generateKeyPairSync('rsa', { modulusLength: 2048 });
const keyOf = (kid: string) => (kid === 'k1' ? published.publicKey : undefined);
const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

function jws(header: Record<string, unknown>, payload: unknown, key = published.privateKey): string {
  const input = `${b64(header)}.${b64(payload)}`;
  return `${input}.${sign('sha256', Buffer.from(input), key).toString('base64url')}`;
}

describe('verifyRs256 (Keys.VerifySignature)', () => {
  it('returns the payload of a JWS signed by a published key', () => {
    const token = jws({ alg: 'RS256', kid: 'k1' }, { sub: 'u1' });
    assert.deepEqual(verifyRs256(token, keyOf), { payload: '{"sub":"u1"}', kid: 'k1' });
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
    for (const token of refused) assert.throws(() => verifyRs256(token, keyOf), JwsError, token.slice(0, 40));
  });

  it('refuses a payload changed after signing', () => {
    const [head, , sig] = jws({ alg: 'RS256', kid: 'k1' }, { sub: 'u1' }).split('.');
    assert.throws(() => verifyRs256(`${head}.${b64({ sub: 'admin' })}.${sig}`, keyOf), /does not verify/);
  });
});

describe('signLogoutToken (Keys.SignLogoutToken)', () => {
  it('is a Back-Channel Logout 1.0 logout token that jose verifies with the published JWK', async () => {
    const nowMs = Date.now();
    const { token, jti } = signLogoutToken(
      { kid: 'k1', key: published.privateKey },
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

  it('needs sub or sid', () => {
    assert.throws(
      () =>
        signLogoutToken(
          { kid: 'k1', key: published.privateKey },
          { issuer: 'i', audience: 'a', ttlS: 60, nowMs: 0 },
        ),
      JwsError,
    );
  });
});
