import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { AliasTakenError, confirmMembership, isBoundAuthenticator } from './confirm-login';
import { memoryUserStore } from './users.memory';

const base = { tenantId: 't1', appId: 'a1', userId: 'u1' };
const signedIn = { ...base, acrValues: [], confirmed: false, firstLoginAt: 1_000, lastLoginAt: 2_000 };

describe('confirmMembership', () => {
  it('confirms the membership, binds the passkey and the device, sets the alias and owes the first confirmed login', async () => {
    const { memberships } = memoryUserStore();
    await memberships.save(signedIn);
    const out = await confirmMembership(memberships, {
      ...base,
      authenticatorId: 'cred-1',
      deviceId: 'dev-1',
      alias: 'alice',
      at: 2_000,
    });
    const expected = {
      ...signedIn,
      confirmed: true,
      alias: 'alice',
      firstConfirmedLoginAt: 2_000,
      firstConfirmedLoginPending: true,
      boundCredentials: ['cred-1'],
      boundDevices: ['dev-1'],
    };
    assert.deepEqual(out, expected);
    assert.deepEqual(await memberships.get('t1', 'a1', 'u1'), expected);
  });

  it('a later confirmation keeps the first confirmed login (time and whether it is still owed) and adds authenticators', async () => {
    const { memberships } = memoryUserStore();
    await memberships.save(signedIn);
    await confirmMembership(memberships, { ...base, deviceId: 'dev-1', at: 2_000 });
    await memberships.save({
      ...(await memberships.get('t1', 'a1', 'u1'))!,
      firstConfirmedLoginPending: undefined,
    });
    const out = await confirmMembership(memberships, { ...base, authenticatorId: 'cred-2', at: 5_000 });
    assert.equal(out.firstConfirmedLoginAt, 2_000);
    assert.equal(out.firstConfirmedLoginPending, undefined);
    assert.deepEqual(out.boundDevices, ['dev-1']);
    assert.deepEqual(out.boundCredentials, ['cred-2']);
  });

  it('the same user and alias again is idempotent (no duplicate authenticators)', async () => {
    const { memberships } = memoryUserStore();
    const login = { ...base, deviceId: 'dev-1', alias: 'alice', at: 2_000 };
    const first = await confirmMembership(memberships, login);
    const again = await confirmMembership(memberships, login);
    assert.deepEqual(again, first);
  });

  it('an alias held by another user of the app: AliasTakenError, and nothing of the membership changes', async () => {
    const { memberships } = memoryUserStore();
    await confirmMembership(memberships, { ...base, userId: 'u2', alias: 'alice', at: 1 });
    await memberships.save(signedIn);
    await assert.rejects(
      confirmMembership(memberships, { ...base, deviceId: 'dev-1', alias: 'alice', at: 2 }),
      AliasTakenError,
    );
    assert.deepEqual(await memberships.get('t1', 'a1', 'u1'), signedIn);
  });

  it('an alias another user got by a plain save (no claim) is taken too', async () => {
    const { memberships } = memoryUserStore();
    await memberships.save({ ...signedIn, userId: 'u2', alias: 'alice' });
    await assert.rejects(confirmMembership(memberships, { ...base, alias: 'alice', at: 2 }), AliasTakenError);
  });

  it('the same alias in another app or tenant is free', async () => {
    const { memberships } = memoryUserStore();
    await confirmMembership(memberships, { ...base, userId: 'u2', alias: 'alice', at: 1 });
    await confirmMembership(memberships, { ...base, appId: 'a2', alias: 'alice', at: 1 });
    await confirmMembership(memberships, { ...base, tenantId: 't2', alias: 'alice', at: 1 });
  });

  it('a new alias frees the old one for other users', async () => {
    const { memberships } = memoryUserStore();
    await confirmMembership(memberships, { ...base, alias: 'old', at: 1 });
    await confirmMembership(memberships, { ...base, alias: 'new', at: 2 });
    const other = await confirmMembership(memberships, { ...base, userId: 'u2', alias: 'old', at: 3 });
    assert.equal(other.alias, 'old');
    assert.deepEqual(
      (await memberships.findByAlias('t1', 'old', 'a1')).map((m) => m.userId),
      ['u2'],
    );
  });

  it('without a membership (registration before any sign-in) the confirmed login is the first login', async () => {
    const { memberships } = memoryUserStore();
    const out = await confirmMembership(memberships, { ...base, authenticatorId: 'c', at: 7_000 });
    assert.equal(out.firstLoginAt, 7_000);
    assert.equal(out.lastLoginAt, 7_000);
    assert.equal(out.confirmed, true);
  });
});

describe('isBoundAuthenticator', () => {
  const m = {
    ...signedIn,
    confirmed: true,
    boundCredentials: ['cred-1'],
    boundDevices: ['dev-1'],
  };
  it('a passkey login counts by its credential only', () => {
    assert.equal(isBoundAuthenticator(m, { authenticatorId: 'cred-1', deviceId: 'dev-9' }), true);
    assert.equal(isBoundAuthenticator(m, { authenticatorId: 'cred-2', deviceId: 'dev-1' }), false);
  });
  it('a login without a passkey counts by its device', () => {
    assert.equal(isBoundAuthenticator(m, { deviceId: 'dev-1' }), true);
    assert.equal(isBoundAuthenticator(m, { deviceId: 'dev-2' }), false);
  });
  it('nothing is bound on an unconfirmed or missing membership', () => {
    assert.equal(isBoundAuthenticator({ ...m, confirmed: false }, { deviceId: 'dev-1' }), false);
    assert.equal(isBoundAuthenticator(undefined, { deviceId: 'dev-1' }), false);
  });
});
