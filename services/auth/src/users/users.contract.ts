// Over 300 lines on purpose: the one contract suite the memory and Mongo repositories both pass; split, the two
// adapters could drift apart unseen.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, it } from '@jest/globals';
import type { AppMembership } from './model';
import { DuplicateUserError, type UserStore } from './users.repository';

const uid = () => randomUUID();

export function membership(
  tenantId: string,
  appId: string,
  userId: string,
  extra: Partial<AppMembership> = {},
) {
  return {
    tenantId,
    appId,
    userId,
    alias: `alias-${uid()}`,
    acrValues: ['ts.svc.app_bound_cred'],
    customData: { tier: 'gold', nested: { a: 1 } },
    confirmed: true,
    firstLoginAt: 100,
    lastLoginAt: 200,
    firstConfirmedLoginAt: 150,
    ...extra,
  } satisfies AppMembership;
}

/** The behaviour every user-store adapter must have; run against the in-memory and the Mongo adapter. */
export function userStoreContract(adapter: string, make: () => Promise<UserStore>): void {
  describe(`user store contract: ${adapter}`, () => {
    let store: UserStore;
    beforeAll(async () => {
      store = await make();
    });

    it('users: created once, found by id and by email; duplicate id or email refused', async () => {
      const user = { userId: uid(), email: `${uid()}@example.com`, createdAt: 1 };
      await store.users.create(user);
      await store.users.create({ userId: uid(), createdAt: 2 });
      await store.users.create({ userId: uid(), createdAt: 3 });
      assert.deepEqual(await store.users.get(user.userId), user);
      assert.deepEqual(await store.users.findByEmail(user.email), user);
      assert.equal(await store.users.findByEmail(`${uid()}@example.com`), undefined);
      await assert.rejects(store.users.create({ ...user, email: undefined }), DuplicateUserError);
      await assert.rejects(
        store.users.create({ userId: uid(), email: user.email, createdAt: 4 }),
        DuplicateUserError,
      );
    });

    it('users: update sets only the given fields of an existing user, and reports a missing one', async () => {
      const user = { userId: uid(), email: `${uid()}@example.com`, createdAt: 1 };
      await store.users.create(user);
      assert.equal(await store.users.update(user.userId, { emailVerifiedAt: 10 }), true);
      assert.equal(await store.users.update(user.userId, { lastSeenAt: 20 }), true);
      assert.deepEqual(await store.users.get(user.userId), { ...user, emailVerifiedAt: 10, lastSeenAt: 20 });
      assert.equal(await store.users.update(uid(), { lastSeenAt: 1 }), false);
      assert.equal(await store.users.get(uid()), undefined);
    });

    it('users: disabled per tenant, enabled again, another tenant untouched, a missing user reported', async () => {
      const user = { userId: uid(), email: `${uid()}@example.com`, createdAt: 1 };
      await store.users.create(user);
      assert.equal(await store.users.setDisabled(user.userId, 'tenant-a', 100), true);
      assert.equal(await store.users.setDisabled(user.userId, 'tenant-b', 200), true);
      assert.deepEqual((await store.users.get(user.userId))?.disabledIn, {
        'tenant-a': 100,
        'tenant-b': 200,
      });
      assert.equal(await store.users.setDisabled(user.userId, 'tenant-a', undefined), true);
      assert.deepEqual((await store.users.get(user.userId))?.disabledIn, { 'tenant-b': 200 });
      await store.users.setDisabled(user.userId, 'tenant-b', undefined);
      const enabled = await store.users.get(user.userId);
      assert.equal(Object.keys(enabled?.disabledIn ?? {}).length, 0);
      assert.equal(await store.users.setDisabled(uid(), 'tenant-a', 1), false);
    });

    it('devices: saved exactly, replaced on save, listed per user oldest first', async () => {
      const [user, other] = [uid(), uid()];
      const facts = {
        deviceName: 'iPhone',
        osType: 'iOS',
        osVersion: '18.1',
        browserType: 'Safari',
        browserVersion: '18.1',
      };
      const phone = { userId: user, deviceId: uid(), registeredAt: 200, lastSeenAt: 200, facts };
      const laptop = { ...phone, deviceId: uid(), registeredAt: 100, lastSeenAt: 100 };
      await store.devices.save(phone);
      await store.devices.save(laptop);
      await store.devices.save({ ...phone, userId: other });
      await store.devices.save({ ...phone, lastSeenAt: 300 });
      assert.deepEqual(await store.devices.get(user, phone.deviceId), { ...phone, lastSeenAt: 300 });
      assert.deepEqual(await store.devices.listForUser(user), [laptop, { ...phone, lastSeenAt: 300 }]);
      assert.equal(await store.devices.get(user, uid()), undefined);
    });

    it('memberships: concurrent updates all land (none overwrites another), on a new and a saved membership', async () => {
      const [tenant, app, user] = [uid(), uid(), uid()];
      const devices = Array.from({ length: 12 }, () => uid());
      const addDevice = (deviceId: string) =>
        store.memberships.update(tenant, app, user, (current) => ({
          ...(current ?? membership(tenant, app, user, { alias: undefined, customData: undefined })),
          boundDevices: [...(current?.boundDevices ?? []), deviceId],
        }));
      await Promise.all(devices.slice(0, 6).map(addDevice)); // racing to create it
      const saved = await store.memberships.get(tenant, app, user);
      await store.memberships.save({ ...saved!, lastLoginAt: 777 }); // a plain save in between
      const last = await Promise.all(devices.slice(6).map(addDevice));
      const stored = await store.memberships.get(tenant, app, user);
      assert.deepEqual([...(stored?.boundDevices ?? [])].sort(), [...devices].sort());
      assert.equal(stored?.lastLoginAt, 777);
      assert.ok(
        last.some((m) => m.boundDevices?.length === 12),
        'update resolves with what it stored',
      );
      assert.deepEqual(
        Object.keys(stored!).filter((k) => !(k in membership(tenant, app, user))),
        ['boundDevices'],
        'nothing but the membership comes back (no store bookkeeping)',
      );
    });

    it('memberships: an update that changes the keys is refused and changes nothing', async () => {
      const [tenant, app, user] = [uid(), uid(), uid()];
      await assert.rejects(
        store.memberships.update(tenant, app, user, () => membership(tenant, app, uid())),
        /changed its keys/,
      );
      assert.equal(await store.memberships.get(tenant, app, user), undefined);
    });

    it('memberships: consented scopes and per-device logins are kept exactly', async () => {
      const [tenant, app, user, device] = [uid(), uid(), uid(), uid()];
      const m = membership(tenant, app, user, {
        consentedScopes: ['openid', 'email'],
        deviceLogins: { [device]: { firstLoginAt: 1, lastLoginAt: 2 } },
      });
      await store.memberships.save(m);
      assert.deepEqual(await store.memberships.get(tenant, app, user), m);
    });

    it('memberships: saved exactly (custom data included), replaced on save, listed per tenant and app', async () => {
      const [tenant, app1, app2, user] = [uid(), uid(), uid(), uid()];
      const m1 = membership(tenant, app1, user);
      const m2 = membership(tenant, app2, user, {
        firstLoginAt: 300,
        alias: undefined,
        customData: undefined,
      });
      await store.memberships.save(m1);
      await store.memberships.save(m2);
      assert.deepEqual(await store.memberships.get(tenant, app1, user), m1);
      const { alias: _a, customData: _c, ...m2Stored } = m2;
      assert.deepEqual(await store.memberships.get(tenant, app2, user), m2Stored);
      await store.memberships.save({ ...m1, lastLoginAt: 999 });
      assert.equal((await store.memberships.get(tenant, app1, user))?.lastLoginAt, 999);
      assert.deepEqual(
        (await store.memberships.listForUser(tenant, user)).map((m) => m.appId),
        [app1, app2],
      );
      assert.deepEqual(
        (await store.memberships.listForUser(tenant, user, app2)).map((m) => m.appId),
        [app2],
      );
      assert.deepEqual(await store.memberships.listForUser(uid(), user), []);
    });

    it('memberships: found by alias within a tenant, optionally within one app', async () => {
      const [tenant, app1, app2, u1, u2] = [uid(), uid(), uid(), uid(), uid()];
      await store.memberships.save(membership(tenant, app1, u1, { alias: 'alice' }));
      await store.memberships.save(membership(tenant, app2, u2, { alias: 'alice' }));
      await store.memberships.save(membership(uid(), app1, uid(), { alias: 'alice' }));
      assert.deepEqual(
        (await store.memberships.findByAlias(tenant, 'alice')).map((m) => m.userId).sort(),
        [u1, u2].sort(),
      );
      assert.deepEqual(
        (await store.memberships.findByAlias(tenant, 'alice', app2)).map((m) => m.userId),
        [u2],
      );
      assert.deepEqual(await store.memberships.findByAlias(tenant, 'bob'), []);
    });

    it("memberships: found by users or alias in one read, each once, first login first, the alias's app only", async () => {
      const [tenant, u1, u2, u3] = [uid(), uid(), uid(), uid()];
      await store.memberships.save(membership(tenant, 'shop', u1, { alias: 'kim', firstLoginAt: 30 }));
      await store.memberships.save(membership(tenant, 'blog', u1, { alias: 'k', firstLoginAt: 10 }));
      await store.memberships.save(membership(tenant, 'blog', u2, { alias: 'kim', firstLoginAt: 20 }));
      await store.memberships.save(membership(tenant, 'shop', u3, { alias: 'other', firstLoginAt: 5 }));
      await store.memberships.save(membership(uid(), 'shop', u3, { alias: 'kim', firstLoginAt: 1 }));
      const keys = (ms: AppMembership[]) => ms.map((m) => `${m.appId}/${m.userId}`);
      assert.deepEqual(keys(await store.memberships.findByUsersOrAlias(tenant, [u1], 'kim')), [
        `blog/${u1}`,
        `blog/${u2}`,
        `shop/${u1}`,
      ]);
      assert.deepEqual(keys(await store.memberships.findByUsersOrAlias(tenant, [u1, u1], 'kim', 'shop')), [
        `blog/${u1}`,
        `shop/${u1}`,
      ]);
      assert.deepEqual(keys(await store.memberships.findByUsersOrAlias(tenant, [u3, uid()], 'nobody')), [
        `shop/${u3}`,
      ]);
      assert.deepEqual(keys(await store.memberships.findByUsersOrAlias(tenant, [], 'kim', 'blog')), [
        `blog/${u2}`,
      ]);
      assert.deepEqual(await store.memberships.findByUsersOrAlias(uid(), [u1, u2], 'kim'), []);
      const [found] = await store.memberships.findByUsersOrAlias(tenant, [], 'other');
      assert.deepEqual(found, membership(tenant, 'shop', u3, { alias: 'other', firstLoginAt: 5 }));
    });

    it('users: many found by id in one read, unknown ids left out', async () => {
      const a = { userId: uid(), email: `${uid()}@example.com`, createdAt: 1 };
      const b = { userId: uid(), createdAt: 2 };
      await store.users.create(a);
      await store.users.create(b);
      const found = await store.users.getMany([b.userId, uid(), a.userId, b.userId]);
      assert.deepEqual(
        found.sort((x, y) => x.createdAt - y.createdAt),
        [a, b],
      );
      assert.deepEqual(await store.users.getMany([]), []);
      assert.deepEqual(await store.users.getMany([uid()]), []);
    });

    it('users: listed newest first by (created, id), in keyset pages that continue after the last one shown', async () => {
      // Far above every other test's createdAt, so the page from `top` starts with these people.
      const base = 1e13 + Math.floor(Math.random() * 1e12);
      const [a, b, c] = ['a', 'b', 'c'].map((k) => `${uid()}-${k}`) as [string, string, string];
      const older = { userId: a, createdAt: base + 1 };
      // Two people created in the same millisecond: the user id breaks the tie, highest first.
      const [tieLow, tieHigh] = [b, c].sort().map((userId) => ({ userId, createdAt: base + 2 }));
      for (const u of [older, tieLow!, tieHigh!]) await store.users.create(u);
      const top = { createdAt: base + 3, userId: '' };
      const first = await store.users.listNewest(2, top);
      assert.deepEqual(first, [tieHigh, tieLow]);
      const next = await store.users.listNewest(1, first[1]);
      assert.deepEqual(next, [older]);
      const after = await store.users.listNewest(5, { createdAt: base + 1, userId: a });
      assert.ok(after.every((u) => u.createdAt < base + 1));
      const newest = await store.users.listNewest(1);
      assert.equal(newest.length, 1);
      assert.ok(newest[0]!.createdAt >= base + 2);
    });

    it('users: found by the start of their address in any case, in address order, paged after an address', async () => {
      const start = `p${uid().slice(0, 8)}`;
      const ada = { userId: uid(), email: `${start}-ada@example.com`, createdAt: 1 };
      const ann = { userId: uid(), email: `${start}-ann@example.com`, createdAt: 2 };
      const bob = { userId: uid(), email: `${start}-bob@example.com`, createdAt: 3 };
      for (const u of [bob, ann, ada]) await store.users.create(u);
      assert.deepEqual(await store.users.findByEmailPrefix(`${start}-A`.toUpperCase(), 10), [ada, ann]);
      assert.deepEqual(await store.users.findByEmailPrefix(start, 2), [ada, ann]);
      assert.deepEqual(await store.users.findByEmailPrefix(start, 2, ann.email), [bob]);
      assert.deepEqual(await store.users.findByEmailPrefix(`${start}-c`, 10), []);
      // Text, not a pattern: a regular expression's characters find nobody.
      assert.deepEqual(await store.users.findByEmailPrefix(`${start}.*`, 10), []);
      assert.deepEqual(await store.users.findByEmailPrefix('.*', 10), []);
    });

    it('users: removePhone forgets the number and its verification only; a missing user reports false', async () => {
      const user = {
        userId: uid(),
        email: `${uid()}@example.com`,
        createdAt: 5,
        phoneNumber: '+4915112345642',
        phoneVerifiedAt: 6,
        emailVerifiedAt: 7,
      };
      await store.users.create(user);
      assert.equal(await store.users.removePhone(user.userId), true);
      const { phoneNumber: _n, phoneVerifiedAt: _v, ...rest } = user;
      assert.deepEqual(await store.users.get(user.userId), rest);
      assert.equal(await store.users.removePhone(uid()), false);
    });

    it('memberships: remove drops exactly one app, or every app of one tenant, and nothing else', async () => {
      const [t1, t2, a1, a2, a3, user, other] = [uid(), uid(), uid(), uid(), uid(), uid(), uid()];
      for (const m of [
        membership(t1, a1, user),
        membership(t1, a2, user),
        membership(t1, a1, other),
        membership(t2, a3, user),
      ]) {
        await store.memberships.save(m);
      }
      assert.equal(await store.memberships.remove(t1, user, a1), 1);
      assert.equal(await store.memberships.get(t1, a1, user), undefined);
      assert.ok(await store.memberships.get(t1, a2, user));
      assert.ok(await store.memberships.get(t1, a1, other));
      assert.equal(await store.memberships.remove(t1, user, a1), 0);
      assert.equal(await store.memberships.remove(t1, user), 1);
      assert.deepEqual(await store.memberships.listForUser(t1, user), []);
      assert.ok(await store.memberships.get(t2, a3, user));
      assert.ok(await store.memberships.get(t1, a1, other));
    });

    it('memberships: confirmation fields (pending first confirmed login, bound credentials and devices) are kept exactly', async () => {
      const [tenant, app, user] = [uid(), uid(), uid()];
      const m = membership(tenant, app, user, {
        firstConfirmedLoginPending: true,
        boundCredentials: ['cred-a', 'cred-b'],
        boundDevices: ['device-a'],
      });
      await store.memberships.save(m);
      assert.deepEqual(await store.memberships.get(tenant, app, user), m);
      const { firstConfirmedLoginPending: _p, boundCredentials: _c, ...without } = m;
      await store.memberships.save(without);
      assert.deepEqual(
        await store.memberships.get(tenant, app, user),
        without,
        'a save without them drops them',
      );
    });

    it('aliases: claimed by one user per application; the holder may claim again; another app or tenant is free', async () => {
      const [tenant, app, otherApp, u1, u2] = [uid(), uid(), uid(), uid(), uid()];
      assert.equal(await store.memberships.claimAlias(tenant, app, 'alice', u1), true);
      assert.equal(
        await store.memberships.claimAlias(tenant, app, 'alice', u1),
        true,
        'idempotent for its holder',
      );
      assert.equal(await store.memberships.claimAlias(tenant, app, 'alice', u2), false, 'taken by u1');
      assert.equal(await store.memberships.claimAlias(tenant, otherApp, 'alice', u2), true);
      assert.equal(await store.memberships.claimAlias(uid(), app, 'alice', u2), true);
    });

    it('aliases: concurrent claims of one alias by different users: exactly one wins', async () => {
      const [tenant, app] = [uid(), uid()];
      const users = Array.from({ length: 8 }, uid);
      const won = await Promise.all(users.map((u) => store.memberships.claimAlias(tenant, app, 'race', u)));
      assert.equal(won.filter(Boolean).length, 1);
    });

    it("aliases: released only by their holder; remove releases the removed memberships' aliases", async () => {
      const [tenant, a1, a2, u1, u2] = [uid(), uid(), uid(), uid(), uid()];
      await store.memberships.claimAlias(tenant, a1, 'x', u1);
      await store.memberships.releaseAlias(tenant, a1, 'x', u2);
      assert.equal(await store.memberships.claimAlias(tenant, a1, 'x', u2), false, "u2 cannot release u1's");
      await store.memberships.releaseAlias(tenant, a1, 'x', u1);
      assert.equal(await store.memberships.claimAlias(tenant, a1, 'x', u2), true, 'free once u1 released it');
      await store.memberships.save(membership(tenant, a1, u1));
      await store.memberships.save(membership(tenant, a2, u1));
      await store.memberships.claimAlias(tenant, a1, 'y', u1);
      await store.memberships.claimAlias(tenant, a2, 'y', u1);
      await store.memberships.remove(tenant, u1, a1);
      assert.equal(
        await store.memberships.claimAlias(tenant, a1, 'y', u2),
        true,
        'app removal frees its alias',
      );
      assert.equal(await store.memberships.claimAlias(tenant, a2, 'y', u2), false, 'the other app keeps it');
      await store.memberships.remove(tenant, u1);
      assert.equal(await store.memberships.claimAlias(tenant, a2, 'y', u2), true, 'tenant removal frees all');
    });

    it('device access: set, replaced, read per tenant', async () => {
      const [tenant, user, device] = [uid(), uid(), uid()];
      await store.deviceAccess.set({
        tenantId: tenant,
        userId: user,
        deviceId: device,
        allowAccess: false,
        changedAt: 1,
      });
      await store.deviceAccess.set({
        tenantId: tenant,
        userId: user,
        deviceId: device,
        allowAccess: true,
        changedAt: 2,
      });
      assert.deepEqual(await store.deviceAccess.get(tenant, user, device), {
        tenantId: tenant,
        userId: user,
        deviceId: device,
        allowAccess: true,
        changedAt: 2,
      });
      assert.equal(await store.deviceAccess.get(uid(), user, device), undefined);
    });

    it("device access: a user's decisions listed per tenant, another tenant's left out", async () => {
      const [tenant, other, user, d1, d2] = [uid(), uid(), uid(), 'a-device', 'b-device'];
      const entry = (tenantId: string, deviceId: string, allowAccess: boolean) => ({
        tenantId,
        userId: user,
        deviceId,
        allowAccess,
        changedAt: 5,
      });
      await store.deviceAccess.set(entry(tenant, d2, true));
      await store.deviceAccess.set(entry(tenant, d1, false));
      await store.deviceAccess.set(entry(other, d1, true));
      await store.deviceAccess.set({ ...entry(tenant, d1, false), userId: uid() });
      assert.deepEqual(await store.deviceAccess.listForUser(tenant, user), [
        entry(tenant, d1, false),
        entry(tenant, d2, true),
      ]);
      assert.deepEqual(await store.deviceAccess.listForUser(uid(), user), []);
    });

    it('look-ups match whole strings: operators, patterns and long strings find nobody', async () => {
      const email = `${uid()}@example.com`;
      const tenant = uid();
      const user = { userId: uid(), email, createdAt: 1 };
      await store.users.create(user);
      await store.memberships.save(membership(tenant, 'app', user.userId, { alias: 'shop.alias' }));
      const hostile = [
        '{"$ne":null}',
        '{"$gt":""}',
        '.*',
        '^',
        `${email.slice(0, 5)}.*`,
        email.toUpperCase(),
        'shop.alia.',
        'shop\\.alias',
        'x'.repeat(10_240),
      ];
      for (const text of hostile) {
        assert.equal(await store.users.findByEmail(text), undefined, text.slice(0, 40));
        assert.equal(await store.users.get(text), undefined);
        assert.deepEqual(await store.memberships.findByAlias(tenant, text), [], text.slice(0, 40));
        assert.deepEqual(await store.memberships.listForUser(tenant, text), []);
        assert.deepEqual(await store.memberships.findByUsersOrAlias(tenant, [text], text), []);
        assert.deepEqual(await store.users.getMany([text]), []);
      }
      assert.equal((await store.memberships.findByAlias(tenant, 'shop.alias')).length, 1);
    });
  });
}
