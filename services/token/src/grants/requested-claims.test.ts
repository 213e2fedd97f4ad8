import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { sampleClaims } from '../testing/sample-claims';
import {
  type RequestedClaims,
  issuedClaimsRequest,
  requestedClaimsOf,
  standardClaims,
} from './requested-claims';

const known = sampleClaims({
  email: 'ada@example.com',
  emailVerified: true,
  phoneNumber: '+15555550100',
  phoneNumberVerified: false,
});
const ask = (
  idToken: string[],
  userinfo: string[] = [],
  values: Partial<RequestedClaims['values']> = {},
): RequestedClaims => ({ idToken, userinfo, values: { idToken: {}, userinfo: {}, ...values } });

describe('standard claims of a member: the scope’s and the claims parameter’s (OIDC Core 5.4, 5.5)', () => {
  it('scope email and phone give each pair; scope openid alone gives none', () => {
    assert.deepEqual(standardClaims('idToken', 'openid email phone', known, undefined), {
      email: 'ada@example.com',
      email_verified: true,
      phone_number: '+15555550100',
      phone_number_verified: false,
    });
    assert.deepEqual(standardClaims('userinfo', 'openid profile', known, undefined), {});
  });

  it('a claim named for a member is given there without its scope, and only there', () => {
    const requested = ask(['email'], ['phone_number']);
    assert.deepEqual(standardClaims('idToken', 'openid', known, requested), { email: 'ada@example.com' });
    assert.deepEqual(standardClaims('userinfo', 'openid', known, requested), {
      phone_number: '+15555550100',
    });
  });

  it('a claim the sign-in does not know is left out, essential or not: none invented', () => {
    const noPhone = sampleClaims({ email: 'ada@example.com', emailVerified: true });
    assert.deepEqual(standardClaims('idToken', 'openid', noPhone, ask(['phone_number', 'email_verified'])), {
      email_verified: true,
    });
    assert.deepEqual(standardClaims('idToken', 'openid', sampleClaims(), ask(['email'])), {});
  });

  it('value and values: a claim with a named value is given, one with another value is not', () => {
    const byValue = ask(['email', 'phone_number'], [], {
      idToken: { email: ['ADA@example.com'], phone_number: ['+15555550199', '+15555550100'] },
    });
    assert.deepEqual(standardClaims('idToken', 'openid', known, byValue), {
      email: 'ada@example.com',
      phone_number: '+15555550100',
    });
    const other = ask([], ['email'], { userinfo: { email: ['bob@example.com'], email_verified: [false] } });
    assert.deepEqual(standardClaims('userinfo', 'openid email', known, other), {});
    const verifiedOnly = ask([], [], { idToken: { phone_number_verified: [true] } });
    assert.deepEqual(standardClaims('idToken', 'openid phone', known, verifiedOnly), {
      phone_number: '+15555550100',
    });
  });

  it('a value named for one member does not hold for the other', () => {
    const requested = ask(['email'], ['email'], { idToken: { email: ['bob@example.com'] } });
    assert.deepEqual(standardClaims('idToken', 'openid', known, requested), {});
    assert.deepEqual(standardClaims('userinfo', 'openid', known, requested), { email: 'ada@example.com' });
  });
});

describe('the claims request of an IssueCode call', () => {
  it('keeps names and values by member; no names is no request', () => {
    const sent = issuedClaimsRequest.parse({
      requestedClaims: { idToken: ['email'], userinfo: [] },
      requestedClaimValues: { id_token: { email: ['a@example.com'] } },
    });
    assert.deepEqual(requestedClaimsOf(sent), {
      idToken: ['email'],
      userinfo: [],
      values: { idToken: { email: ['a@example.com'] }, userinfo: {} },
    });
    assert.equal(requestedClaimsOf(issuedClaimsRequest.parse({})), undefined);
  });

  it('refuses values that are not lists by claim name', () => {
    const bad = issuedClaimsRequest.safeParse({
      requestedClaims: { idToken: ['email'], userinfo: [] },
      requestedClaimValues: { id_token: { email: 'a@example.com' } },
    });
    assert.equal(bad.success, false);
  });
});
