import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { queryPlan, tempEngines } from '@sesame/embedded-store/testing';
import { MEMBERSHIP_SQL } from './memberships.sqlite';
import { membership, userStoreContract } from './users.contract';
import { USERS_COMPONENT, USER_SQL, sqliteUserStore } from './users.sqlite';

const engines = tempEngines('auth-users');

userStoreContract('sqlite', async () => sqliteUserStore(engines.open()));

describe('sqlite user store (embedded)', () => {
  it('keeps people, devices, memberships, aliases and blocked devices across a close and a new open', async () => {
    const dir = engines.dir();
    let engine = engines.open(dir);
    let store = sqliteUserStore(engine);
    const user = { userId: 'u-1', email: 'Ada@Example.com', createdAt: 1, phoneNumber: '+15550100' };
    const facts = {
      deviceName: 'Mac',
      osType: 'macOS',
      osVersion: '15',
      browserType: 'Safari',
      browserVersion: '18',
    };
    const device = { userId: 'u-1', deviceId: 'd-1', registeredAt: 5, lastSeenAt: 6, facts };
    const m = membership('t-1', 'app-1', 'u-1', {
      alias: 'ada',
      deviceLogins: { 'd-1': { firstLoginAt: 5, lastLoginAt: 6 } },
      boundCredentials: ['cred-1'],
    });
    const access = { tenantId: 't-1', userId: 'u-1', deviceId: 'd-1', allowAccess: false, changedAt: 7 };
    await store.users.create(user);
    await store.users.update('u-1', { lastSeenAt: 9 });
    await store.devices.save(device);
    await store.memberships.save(m);
    assert.equal(await store.memberships.claimAlias('t-1', 'app-1', 'ada', 'u-1'), true);
    await store.deviceAccess.set(access);
    engine.close();

    engine = engines.open(dir);
    store = sqliteUserStore(engine);
    assert.deepEqual(await store.users.findByEmail('Ada@Example.com'), { ...user, lastSeenAt: 9 });
    assert.deepEqual(await store.devices.listForUser('u-1'), [device]);
    assert.deepEqual(await store.memberships.findByAlias('t-1', 'ada'), [m]);
    assert.equal(
      await store.memberships.claimAlias('t-1', 'app-1', 'ada', 'u-2'),
      false,
      'the claim is kept',
    );
    assert.deepEqual(await store.deviceAccess.listForUser('t-1', 'u-1'), [access]);
    assert.equal(engine.versionOf(USERS_COMPONENT), 2);
  });

  it('an update whose change throws stores nothing and leaves the membership as it was', async () => {
    const store = sqliteUserStore(engines.open());
    const m = membership('t-1', 'app-1', 'u-1');
    await store.memberships.save(m);
    await assert.rejects(
      store.memberships.update('t-1', 'app-1', 'u-1', () => {
        throw new Error('refused');
      }),
      /refused/,
    );
    assert.deepEqual(await store.memberships.get('t-1', 'app-1', 'u-1'), m);
  });

  it('keeps the address in lower case beside it, so a look-up by its start is a range on an index', async () => {
    const engine = engines.open();
    const store = sqliteUserStore(engine);
    await store.users.create({ userId: 'u-1', email: 'Ada.Lovelace@Example.com', createdAt: 1 });
    await store.users.create({ userId: 'u-2', email: 'adam@example.com', createdAt: 2 });
    await store.users.create({ userId: 'u-3', email: 'bob@example.com', createdAt: 3 });
    const prefix = engine.db.prepare<[string, string], string>(
      'SELECT user_id FROM auth_users WHERE email_norm >= ? AND email_norm < ? ORDER BY email_norm',
    );
    assert.deepEqual(Array.from(prefix.pluck().all('ada', 'adb')), ['u-1', 'u-2']);
    const plan = queryPlan(
      engine,
      'SELECT user_id FROM auth_users WHERE email_norm >= ? AND email_norm < ? ORDER BY email_norm',
    ).join('\n');
    assert.match(plan, /USING INDEX auth_users_email_norm/);
    assert.match(
      queryPlan(engine, 'SELECT user_id FROM auth_users ORDER BY created_at DESC LIMIT 50').join('\n'),
      /auth_users_created/,
    );
  });

  it.each(Object.entries({ ...USER_SQL, ...MEMBERSHIP_SQL }))(
    'the planner serves %s from an index, with no scan and no sort',
    (_name, sql) => {
      const engine = engines.open();
      sqliteUserStore(engine);
      const plan = queryPlan(engine, sql);
      for (const step of plan) {
        assert.doesNotMatch(step, /^SCAN /, `${sql}: ${plan.join(' | ')}`);
        assert.doesNotMatch(step, /TEMP B-TREE/, `${sql}: ${plan.join(' | ')}`);
      }
    },
  );
});
