import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { UnsecuredJWT, errors as joseErrors } from 'jose';
import { type JwtClaimChecks, checkClaims, claimsOf } from './jwt-claims';

const NOW_S = 1_800_000_000;
const CHECKS: JwtClaimChecks = {
  algorithms: ['ES256'],
  issuer: 'client-1',
  subject: 'client-1',
  audience: ['https://auth.example', 'https://auth.example/token'],
  requiredClaims: ['iss', 'sub', 'aud', 'exp', 'jti'],
  clockTolerance: 30,
  currentDate: new Date(NOW_S * 1000),
};
const VALID = {
  iss: 'client-1',
  sub: 'client-1',
  aud: 'https://auth.example',
  exp: NOW_S + 60,
  iat: NOW_S,
  jti: 'a',
};
const b64 = (text: string) => Buffer.from(text).toString('base64url');

/** What jose's own jwtVerify claim checks (UnsecuredJWT.decode runs the same) say about a payload segment. */
function jose(segment: string, checks: JwtClaimChecks): unknown {
  try {
    return UnsecuredJWT.decode(`${b64('{"alg":"none"}')}.${segment}.`, {
      ...checks,
      audience: [...(typeof checks.audience === 'string' ? [checks.audience] : checks.audience)],
      requiredClaims: [...checks.requiredClaims],
    }).payload;
  } catch (err) {
    return err;
  }
}

function ours(segment: string, checks: JwtClaimChecks): unknown {
  try {
    const claims = claimsOf(segment);
    checkClaims(claims, checks);
    return claims;
  } catch (err) {
    return err;
  }
}

/** The same outcome: the same claims, or the same error class, claim, reason and message. */
function same(segment: string, checks: JwtClaimChecks = CHECKS): unknown {
  const expected = jose(segment, checks);
  const actual = ours(segment, checks);
  if (!(expected instanceof Error)) {
    assert.deepEqual(actual, expected);
    return actual;
  }
  assert.ok(actual instanceof Error, `jose refused (${expected.message}), the hand-written checks did not`);
  assert.equal(actual.constructor, expected.constructor);
  if (expected instanceof joseErrors.JWTClaimValidationFailed || expected instanceof joseErrors.JWTExpired) {
    const ourErr = actual as joseErrors.JWTClaimValidationFailed;
    assert.equal(ourErr.claim, expected.claim);
    assert.equal(ourErr.reason, expected.reason);
    assert.equal(ourErr.message, expected.message);
  }
  return actual;
}

const claims = (overrides: Record<string, unknown>, drop: string[] = []) => {
  const set: Record<string, unknown> = { ...VALID, ...overrides };
  for (const claim of drop) delete set[claim];
  return b64(JSON.stringify(set));
};

describe('checkClaims: jose jwtVerify claim checks, by hand', () => {
  it('accepts what jose accepts, with the same claims', () => {
    assert.equal((same(claims({})) as { jti: string }).jti, 'a');
    same(claims({ aud: ['https://other.example', 'https://auth.example/token'] }));
    same(claims({ nbf: NOW_S + 30, iat: NOW_S + 10_000 }));
    same(claims({ exp: NOW_S - 29 }));
    same(claims({}, ['iat']));
  });

  it('refuses a missing claim first in jose order (iss, sub, aud, then the required ones)', () => {
    for (const drop of [
      ['iss'],
      ['sub'],
      ['aud'],
      ['exp'],
      ['jti'],
      ['jti', 'exp'],
      ['aud', 'iss'],
      ['sub', 'jti'],
    ])
      assert.ok(same(claims({}, drop)) instanceof joseErrors.JWTClaimValidationFailed, drop.join());
    same(claims({}, ['sub']), { ...CHECKS, subject: undefined, requiredClaims: ['jti'] });
  });

  it('refuses an unexpected iss, sub or aud', () => {
    for (const overrides of [
      { iss: 'client-2' },
      { sub: 'client-2' },
      { aud: 'https://other.example' },
      { aud: ['https://other.example'] },
      { aud: [] },
      { aud: 7 },
      { aud: { 0: 'https://auth.example' } },
      { iss: null },
    ])
      assert.ok(
        same(claims(overrides)) instanceof joseErrors.JWTClaimValidationFailed,
        JSON.stringify(overrides),
      );
    same(claims({ aud: 'https://auth.example' }), { ...CHECKS, audience: 'https://auth.example' });
    same(claims({ aud: 'https://auth.example/token' }), { ...CHECKS, audience: 'https://auth.example' });
  });

  it('refuses times that are not numbers, an nbf ahead and an exp gone, at the tolerance edge as jose', () => {
    for (const overrides of [
      { iat: 'now' },
      { nbf: '1' },
      { exp: String(NOW_S + 60) },
      { exp: null },
      { nbf: NOW_S + 31 },
      { exp: NOW_S - 30 },
      { exp: NOW_S - 3600 },
    ])
      assert.ok(same(claims(overrides)) instanceof joseErrors.JOSEError, JSON.stringify(overrides));
    assert.ok(same(claims({ exp: NOW_S - 30 })) instanceof joseErrors.JWTExpired);
  });

  it('refuses a payload that is no JSON object', () => {
    for (const segment of [
      b64('[1,2]'),
      b64('"a string"'),
      b64('null'),
      b64('7'),
      b64('{"iss":'),
      '',
      Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]).toString('base64url'),
    ])
      assert.ok(ours(segment, CHECKS) instanceof joseErrors.JWTInvalid, segment);
    // jose refuses them too (its decode errors are worded otherwise).
    for (const segment of [b64('[1,2]'), b64('null'), b64('{"iss":')])
      assert.ok(jose(segment, CHECKS) instanceof joseErrors.JWTInvalid, segment);
  });

  it('keeps an own __proto__ claim as a claim, not a prototype', () => {
    const claimsSet = claimsOf(b64(`{"__proto__":{"iss":"client-1"},"sub":"x"}`));
    assert.equal(Object.getPrototypeOf(claimsSet), Object.prototype);
    assert.equal(claimsSet.iss, undefined);
    same(
      b64(
        `{"__proto__":{"iss":"client-1"},"sub":"client-1","aud":"https://auth.example","exp":${NOW_S + 60},"jti":"a"}`,
      ),
    );
  });
});
