import assert from 'node:assert/strict';
import { beforeAll, describe, it } from '@jest/globals';
import { GrpcStatus, isGrpcStatus } from '@sesame/platform';
import { users } from '@sesame/proto';
import { memoryPasskeyStore } from '../passkeys';
import { memoryUserStore } from '../users';
import { membership } from '../users/users.contract';
import { findUsers, getUserDetail } from './support-users';

const { USER_MATCH_EMAIL: EMAIL, USER_MATCH_USER_ID: USER_ID, USER_MATCH_ALIAS: ALIAS } = users.UserMatch;
const invalid = (e: unknown) => isGrpcStatus(e, GrpcStatus.INVALID_ARGUMENT);
const notFound = (e: unknown) => isGrpcStatus(e, GrpcStatus.NOT_FOUND);

describe('Users gRPC for support: FindUsers, GetUserDetail', () => {
  const store = memoryUserStore();
  const passkeys = memoryPasskeyStore();
  const find = (query: string, tenantId = 'tenant-a', appId = '') =>
    findUsers(store)({ tenantId, query, appId }).then((r) =>
      r.users.map((u) => [u.userId, u.email, u.matchedBy]),
    );
  const detail = (userId: string, tenantId = 'tenant-a') =>
    getUserDetail(store, passkeys)({ tenantId, userId });

  beforeAll(async () => {
    await store.users.create({ userId: 'alice-id', email: 'alice@example.com', createdAt: 1 });
    await store.users.create({ userId: 'bob-id', email: 'bob@example.com', createdAt: 1 });
    await store.users.create({ userId: 'carol-id', email: 'carol@example.com', createdAt: 1 });
    const devices = { mac: { firstLoginAt: 100, lastLoginAt: 900 } };
    await store.memberships.save(
      membership('tenant-a', 'shop', 'alice-id', { alias: 'al', deviceLogins: devices }),
    );
    await store.memberships.save(
      membership('tenant-a', 'blog', 'alice-id', {
        alias: 'shared',
        firstLoginAt: 50,
        lastLoginAt: 60,
        confirmed: false,
        deviceLogins: {
          mac: { firstLoginAt: 50, lastLoginAt: 60 },
          phone: { firstLoginAt: 55, lastLoginAt: 58 },
        },
      }),
    );
    await store.memberships.save(membership('tenant-a', 'shop', 'bob-id', { alias: 'shared' }));
    // Carol is a person of tenant-b only.
    await store.memberships.save(membership('tenant-b', 'other', 'carol-id', { alias: 'al' }));
    await store.devices.save({
      userId: 'alice-id',
      deviceId: 'mac',
      registeredAt: 10,
      lastSeenAt: 950,
      facts: {
        deviceName: 'Mac',
        osType: 'macOS',
        osVersion: '14',
        browserType: 'Chrome',
        browserVersion: '120',
      },
    });
    await store.devices.save({
      userId: 'alice-id',
      deviceId: 'tv',
      registeredAt: 10,
      lastSeenAt: 20,
      facts: {
        deviceName: 'TV',
        osType: 'Tizen',
        osVersion: '1',
        browserType: 'Samsung',
        browserVersion: '1',
      },
    });
    await store.deviceAccess.set({
      tenantId: 'tenant-a',
      userId: 'alice-id',
      deviceId: 'phone',
      allowAccess: false,
      changedAt: 70,
    });
    await store.deviceAccess.set({
      tenantId: 'tenant-b',
      userId: 'alice-id',
      deviceId: 'mac',
      allowAccess: false,
      changedAt: 70,
    });
    for (const [credentialId, deviceId] of [
      ['k1', 'mac'],
      ['k2', 'mac'],
      ['k3', 'phone'],
    ] as const) {
      await passkeys.create({
        credentialId,
        userId: 'alice-id',
        deviceId,
        publicKey: 'pk',
        counter: 0,
        transports: [],
        aaguid: '00000000-0000-0000-0000-000000000000',
        backupEligible: false,
        backedUp: false,
        createdAt: 1,
        status: 'active',
      });
    }
  });

  it('finds by exact email, case-insensitively and trimmed, as auth stores addresses; a part is a start', async () => {
    assert.deepEqual(await find('alice@example.com'), [['alice-id', 'alice@example.com', EMAIL]]);
    assert.deepEqual(await find('  ALICE@Example.COM '), [['alice-id', 'alice@example.com', EMAIL]]);
    // The start of the address is a prefix match (issue 38); the middle of it is nothing.
    assert.deepEqual(await find('alice@example'), [
      ['alice-id', 'alice@example.com', users.UserMatch.USER_MATCH_EMAIL_PREFIX],
    ]);
    assert.deepEqual(await find('lice@example.com'), []);
  });

  it('finds by user id and by alias, of one app or of any app of the tenant', async () => {
    assert.deepEqual(await find('bob-id'), [['bob-id', 'bob@example.com', USER_ID]]);
    assert.deepEqual(await find('al'), [['alice-id', 'alice@example.com', ALIAS]]);
    assert.deepEqual(await find('shared'), [
      ['alice-id', 'alice@example.com', ALIAS],
      ['bob-id', 'bob@example.com', ALIAS],
    ]);
    assert.deepEqual(await find('shared', 'tenant-a', 'shop'), [['bob-id', 'bob@example.com', ALIAS]]);
    assert.deepEqual(await find('al', 'tenant-a', 'blog'), []);
  });

  it("never finds another tenant's person, by email, id or alias, and says so like for an unknown one", async () => {
    assert.deepEqual(await find('carol@example.com'), []);
    assert.deepEqual(await find('carol-id'), []);
    assert.deepEqual(await find('al', 'tenant-b'), [['carol-id', 'carol@example.com', ALIAS]]);
    assert.deepEqual(await find('alice@example.com', 'tenant-b'), []);
    await assert.rejects(detail('carol-id'), notFound);
    await assert.rejects(detail('nobody'), notFound);
  });

  it('a search built to break the query finds nobody: operators, patterns, 10 KB', async () => {
    for (const q of [
      '{"$ne":null}',
      '{"$gt":""}',
      '.*',
      '.*@example.com',
      '^a',
      'al|bob-id',
      '[a-z]+',
      'a*',
    ]) {
      assert.deepEqual(await find(q), [], q);
    }
    await assert.rejects(
      find('a'.repeat(10_240)),
      (e) => invalid(e) && /too long/.test((e as Error).message),
    );
    await assert.rejects(find(`${'a'.repeat(10_000)}@example.com`), invalid);
    await assert.rejects(find('   '), invalid);
    await assert.rejects(find('alice@example.com', ''), invalid);
    await assert.rejects(detail(''), invalid);
  });

  it("a person's detail: memberships, and the devices used with the tenant's apps (passkeys, block)", async () => {
    const d = await detail('alice-id');
    assert.equal(d.email, 'alice@example.com');
    assert.deepEqual(
      d.memberships.map((m) => [m.appId, m.alias, m.confirmed, m.firstLogin, m.lastLogin]),
      [
        ['blog', 'shared', false, 50, 60],
        ['shop', 'al', true, 100, 200],
      ],
    );
    assert.deepEqual(d.devices, [
      {
        deviceId: 'mac',
        name: 'Mac',
        os: 'macOS 14',
        browser: 'Chrome 120',
        firstSeen: 50,
        lastSeen: 900,
        passkeys: 2,
        blocked: false,
      },
      {
        deviceId: 'phone',
        name: 'Unknown device',
        os: '',
        browser: '',
        firstSeen: 55,
        lastSeen: 58,
        passkeys: 1,
        blocked: true,
      },
    ]);
  });
});
