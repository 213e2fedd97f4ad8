import assert from 'node:assert/strict';
import { beforeAll, describe, it } from '@jest/globals';
import { GrpcStatus, isGrpcStatus } from '@sesame/platform';
import { users } from '@sesame/proto';
import { memoryPasskeyStore } from '../passkeys';
import type { PasskeyRepository } from '../passkeys/passkeys.repository';
import { type UserStore, memoryUserStore } from '../users';
import { membership } from '../users/users.contract';
import { findUsers, getUserDetail } from './support-users';

const { USER_MATCH_EMAIL: EMAIL, USER_MATCH_USER_ID: USER_ID, USER_MATCH_ALIAS: ALIAS } = users.UserMatch;

/**
 * The store's reads as support's look-ups issue them: which, in what order, how many at once. On a server that
 * reads a whole collection per query (the Mongo-wire server of the tests) each read is a scan, so their number
 * and sequence is the look-up's time.
 */
function recorded(store: UserStore, passkeys: PasskeyRepository) {
  const reads: string[] = [];
  let inFlight = 0;
  let mostAtOnce = 0;
  const wrap = <T extends object>(name: string, repo: T): T =>
    new Proxy(repo, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver);
        if (typeof value !== 'function') return value;
        return async (...args: unknown[]) => {
          reads.push(`${name}.${String(prop)}`);
          inFlight++;
          mostAtOnce = Math.max(mostAtOnce, inFlight);
          await new Promise((resolve) => setTimeout(resolve, 5));
          try {
            return await value.apply(target, args);
          } finally {
            inFlight--;
          }
        };
      },
    });
  const wrapped: UserStore = {
    users: wrap('users', store.users),
    devices: wrap('devices', store.devices),
    memberships: wrap('memberships', store.memberships),
    deviceAccess: wrap('deviceAccess', store.deviceAccess),
  };
  return {
    store: wrapped,
    passkeys: wrap('passkeys', passkeys),
    reads,
    mostAtOnce: () => mostAtOnce,
    reset() {
      reads.length = 0;
      mostAtOnce = 0;
    },
  };
}

describe("support's look-ups: few reads, and a person's detail only after the membership check", () => {
  const base = memoryUserStore();
  const r = recorded(base, memoryPasskeyStore());
  const find = (query: string, appId = '') =>
    findUsers(r.store)({ tenantId: 'tenant-a', query, appId }).then((a) =>
      a.users.map((u) => [u.userId, u.email, u.matchedBy]),
    );

  beforeAll(async () => {
    await base.users.create({ userId: 'dana-id', email: 'dana@example.com', createdAt: 1 });
    await base.users.create({ userId: 'eve-id', email: 'eve@example.com', createdAt: 1 });
    await base.users.create({ userId: 'dana@example.com', createdAt: 1 });
    await base.users.create({ userId: 'fay-id', email: 'fay@example.com', createdAt: 1 });
    await base.memberships.save(membership('tenant-a', 'shop', 'fay-id'));
    await base.memberships.save(membership('tenant-a', 'shop', 'dana-id', { alias: 'dee' }));
    // Eve's alias in the blog is Dana's address; a person's user id is that address too.
    await base.memberships.save(membership('tenant-a', 'blog', 'eve-id', { alias: 'dana@example.com' }));
    await base.memberships.save(membership('tenant-a', 'blog', 'dana@example.com', { firstLoginAt: 300 }));
  });

  it('search by email: the address, then one read of the memberships (no read per person found)', async () => {
    r.reset();
    assert.deepEqual(await find(' Fay@Example.com'), [['fay-id', 'fay@example.com', EMAIL]]);
    assert.deepEqual(r.reads, ['users.findByEmailPrefix', 'memberships.findByUsersOrAlias']);
  });

  it('one string read as email, user id and alias at once: each person once, in that order, emails in one read', async () => {
    r.reset();
    assert.deepEqual(await find('dana@example.com'), [
      ['dana-id', 'dana@example.com', EMAIL],
      ['dana@example.com', '', USER_ID],
      ['eve-id', 'eve@example.com', ALIAS],
    ]);
    assert.deepEqual(r.reads, ['users.findByEmailPrefix', 'memberships.findByUsersOrAlias', 'users.getMany']);
    assert.deepEqual(await find('dana@example.com', 'shop'), [
      ['dana-id', 'dana@example.com', EMAIL],
      ['dana@example.com', '', USER_ID],
    ]);
  });

  it('search by alias or id: the start of an address read (issue 38), one read of memberships, one of the people', async () => {
    r.reset();
    assert.deepEqual(await find('dee'), [['dana-id', 'dana@example.com', ALIAS]]);
    assert.deepEqual(r.reads, ['users.findByEmailPrefix', 'memberships.findByUsersOrAlias', 'users.getMany']);
    r.reset();
    assert.deepEqual(await find('nobody'), []);
    assert.deepEqual(r.reads, ['users.findByEmailPrefix', 'memberships.findByUsersOrAlias']);
    r.reset();
    // Shorter than three characters and no "@": no address read at all.
    assert.deepEqual(await find('de'), []);
    assert.deepEqual(r.reads, ['memberships.findByUsersOrAlias']);
  });

  it("a person's detail: the membership first, then the other four at once; nothing more of an outsider", async () => {
    r.reset();
    const d = await getUserDetail(r.store, r.passkeys)({ tenantId: 'tenant-a', userId: 'dana-id' });
    assert.equal(d.email, 'dana@example.com');
    assert.deepEqual(
      d.memberships.map((m) => m.appId),
      ['shop'],
    );
    assert.equal(r.reads[0], 'memberships.listForUser');
    assert.deepEqual(r.reads.slice(1).sort(), [
      'deviceAccess.listForUser',
      'devices.listForUser',
      'passkeys.listForUser',
      'users.get',
    ]);
    assert.equal(r.mostAtOnce(), 4);
    r.reset();
    await assert.rejects(
      getUserDetail(r.store, r.passkeys)({ tenantId: 'tenant-b', userId: 'dana-id' }),
      (e: unknown) => isGrpcStatus(e, GrpcStatus.NOT_FOUND),
    );
    assert.deepEqual(r.reads, ['memberships.listForUser']);
  });
});
