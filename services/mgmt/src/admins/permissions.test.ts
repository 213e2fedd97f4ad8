import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { MgmtError } from '@sesame/platform';
import { type AdminAction, assertAllowed, isAllowed, permissions } from './permissions';

const actions = Object.keys(permissions) as AdminAction[];
const allowedTo = (role: 'owner' | 'administrator' | 'support') =>
  actions.filter((a) => isAllowed(role, a)).sort();

describe('the permission table', () => {
  it('Owner may do everything', () => {
    assert.deepEqual(allowedTo('owner'), [...actions].sort());
  });

  it('Administrator may do everything but administrators and their tokens, removing the tenant, creating tenants and rotating keys', () => {
    assert.deepEqual(actions.filter((a) => !isAllowed('administrator', a)).sort(), [
      'administrators.changeRole',
      'administrators.invite',
      'administrators.remove',
      'keys.rotate',
      'tenant.create',
      'tenant.remove',
      'tokens.manageAll',
    ]);
  });

  it('Support may only read the tenant, users, activity and admin logs, block devices, sign a person out everywhere, remove a passkey, export events and manage own tokens', () => {
    assert.deepEqual(allowedTo('support'), [
      'activity.read',
      'adminLogs.read',
      'device.block',
      'events.export',
      'ownTokens.manage',
      'passkey.remove',
      'tenant.read',
      'user.signOutEverywhere',
      'users.read',
    ]);
  });

  it('removing a person from an application or the tenant needs an Administrator or Owner', () => {
    assert.equal(isAllowed('support', 'user.remove'), false);
    assert.equal(isAllowed('administrator', 'user.remove'), true);
    assert.equal(isAllowed('owner', 'user.remove'), true);
  });

  it('erasing the attempts of an address needs an Administrator or Owner', () => {
    assert.equal(isAllowed('support', 'attempts.erase'), false);
    assert.equal(isAllowed('administrator', 'attempts.erase'), true);
    assert.equal(isAllowed('owner', 'attempts.erase'), true);
  });

  it('assertAllowed answers 403 forbidden for a refused action and nothing for an allowed one', () => {
    assert.doesNotThrow(() => assertAllowed('support', 'device.block'));
    assert.throws(
      () => assertAllowed('support', 'application.write'),
      (err: unknown) => err instanceof MgmtError && err.status === 403 && err.code === 'forbidden',
    );
  });
});
