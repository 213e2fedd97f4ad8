import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import type { AppMembership } from '../users';
import { membershipAfterLogin } from './login-membership';

const keys = { tenantId: 't', appId: 'a', userId: 'u' };
const login = { ...keys, scopes: ['openid', 'email'], deviceId: 'd2', loginAt: 5_000, now: 6_000 };
const seen: AppMembership = {
  ...keys,
  acrValues: [],
  confirmed: false,
  firstLoginAt: 1_000,
  lastLoginAt: 2_000,
  consentedScopes: ['openid'],
  deviceLogins: { d1: { firstLoginAt: 1_000, lastLoginAt: 2_000 } },
};

describe('membershipAfterLogin', () => {
  it('records the first login of a new member', () => {
    assert.deepEqual(membershipAfterLogin(undefined, undefined, login), {
      ...keys,
      acrValues: [],
      confirmed: false,
      firstLoginAt: 5_000,
      lastLoginAt: 6_000,
      firstConfirmedLoginPending: undefined,
      consentedScopes: ['openid', 'email'],
      deviceLogins: { d2: { firstLoginAt: 5_000, lastLoginAt: 6_000 } },
    });
  });

  it('keeps what a session feedback wrote after the login read the membership (confirmed, bound, alias)', () => {
    const confirmedMeanwhile: AppMembership = {
      ...seen,
      confirmed: true,
      alias: 'alice',
      firstConfirmedLoginAt: 4_000,
      firstConfirmedLoginPending: true,
      boundCredentials: ['cred-1'],
      boundDevices: ['d1'],
    };
    const next = membershipAfterLogin(confirmedMeanwhile, seen, login);
    assert.equal(next.confirmed, true);
    assert.equal(next.alias, 'alice');
    assert.deepEqual(next.boundCredentials, ['cred-1']);
    assert.deepEqual(next.boundDevices, ['d1']);
    // This login's claims did not carry capp_first_confirmed_login: the next login still owes it.
    assert.equal(next.firstConfirmedLoginPending, true);
    assert.equal(next.firstLoginAt, 1_000);
    assert.deepEqual(next.deviceLogins, {
      d1: { firstLoginAt: 1_000, lastLoginAt: 2_000 },
      d2: { firstLoginAt: 5_000, lastLoginAt: 6_000 },
    });
  });

  it('clears capp_first_confirmed_login once the login that carried it completes', () => {
    const owed: AppMembership = { ...seen, confirmed: true, firstConfirmedLoginPending: true };
    assert.equal(membershipAfterLogin(owed, owed, login).firstConfirmedLoginPending, undefined);
  });
});
