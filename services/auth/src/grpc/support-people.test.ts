import assert from 'node:assert/strict';
import { beforeAll, describe, it } from '@jest/globals';
import { GrpcStatus, isGrpcStatus } from '@sesame/platform';
import { users } from '@sesame/proto';
import { memoryPasskeyStore } from '../passkeys';
import { passkey } from '../passkeys/passkeys.contract';
import { memoryUserStore } from '../users';
import { membership } from '../users/users.contract';
import { listUsers, maskPhone, removePasskey, removePhoneNumber } from './support-people';
import { findUsers, getUserDetail } from './support-users';

const invalid = (e: unknown) => isGrpcStatus(e, GrpcStatus.INVALID_ARGUMENT);
const notFound = (e: unknown) => isGrpcStatus(e, GrpcStatus.NOT_FOUND);
const ICLOUD = 'fbfc3007-154e-4ecc-8c0b-6e020557d7bd';

describe('Users gRPC for support: ListUsers, prefix search, passkeys and phone (issue 38)', () => {
  const store = memoryUserStore();
  const passkeys = memoryPasskeyStore();
  const list = (limit: number, cursor = '', tenantId = 'tenant-a') =>
    listUsers(store, passkeys)({ tenantId, limit, cursor });

  beforeAll(async () => {
    // Ten people of tenant-a created at 1..10 (ann-0 … ann-9), and between them people of tenant-b only.
    for (let i = 0; i < 10; i++) {
      await store.users.create({ userId: `a${i}`, email: `ann-${i}@example.com`, createdAt: 10 * i + 1 });
      await store.memberships.save(membership('tenant-a', 'shop', `a${i}`, { lastLoginAt: 500 + i }));
      await store.users.create({ userId: `b${i}`, email: `anna-${i}@other.example`, createdAt: 10 * i + 2 });
      await store.memberships.save(membership('tenant-b', 'blog', `b${i}`));
    }
    await store.users.update('a9', { phoneNumber: '+49 151 1234 5642' });
    await store.users.create({
      userId: 'off',
      email: 'off@example.com',
      createdAt: 200,
      disabledIn: { 'tenant-a': 300 },
    });
    await store.memberships.save(membership('tenant-a', 'shop', 'off', { lastLoginAt: 250 }));
    await passkeys.create(
      passkey('a9', { credentialId: 'lost-phone', aaguid: ICLOUD, createdAt: 5, deviceId: 'phone' }),
    );
    await passkeys.create(passkey('a9', { credentialId: 'laptop', createdAt: 6, lastUsedAt: 7 }));
  });

  it("lists the tenant's people newest first with created, last sign-in, status and passkeys", async () => {
    const page = await list(3);
    assert.deepEqual(
      page.users.map((u) => [u.userId, u.email, u.createdAt, u.lastSignIn, u.disabledAt, u.passkeys]),
      [
        ['off', 'off@example.com', 200, 250, 300, 0],
        ['a9', 'ann-9@example.com', 91, 509, 0, 2],
        ['a8', 'ann-8@example.com', 81, 508, 0, 0],
      ],
    );
    assert.ok(page.nextCursor);
  });

  it('pages by cursor to the end: each person once, never another tenant’s, no cursor on the last page', async () => {
    const seen: string[] = [];
    let cursor = '';
    for (let i = 0; i < 10; i++) {
      const page = await list(4, cursor);
      seen.push(...page.users.map((u) => u.userId));
      cursor = page.nextCursor;
      if (!cursor) break;
    }
    assert.deepEqual(seen, ['off', 'a9', 'a8', 'a7', 'a6', 'a5', 'a4', 'a3', 'a2', 'a1', 'a0']);
    assert.equal(cursor, '');
    assert.deepEqual((await list(50, '', 'tenant-none')).users, []);
  });

  it('refuses a limit out of range and a cursor that is not this list’s', async () => {
    await assert.rejects(list(0), invalid);
    await assert.rejects(list(201), invalid);
    await assert.rejects(list(5, 'not-a-cursor'), invalid);
    await assert.rejects(list(5, Buffer.from('["x","y"]').toString('base64url')), invalid);
  });

  it('finds people of the tenant by the start of their address, in any case, from 3 characters on', async () => {
    const find = (query: string) =>
      findUsers(store)({ tenantId: 'tenant-a', query, appId: '' }).then((r) =>
        r.users.map((u) => [u.userId, u.matchedBy]),
      );
    const prefix = users.UserMatch.USER_MATCH_EMAIL_PREFIX;
    const found = await find('ANN-');
    assert.deepEqual(
      found,
      [0, 1, 2, 3, 4, 5, 6, 7, 8, 9].map((i) => [`a${i}`, prefix]),
    );
    // "anna-…" addresses are tenant-b's people only: not found from tenant-a.
    assert.deepEqual(await find('anna'), []);
    assert.deepEqual(await find('an'), []);
    // An exact address still reads as the address.
    assert.deepEqual(await find('ann-3@example.com'), [['a3', users.UserMatch.USER_MATCH_EMAIL]]);
  });

  it("details the person's passkeys (model from the AAGUID list, device), created date and masked phone", async () => {
    const detail = await getUserDetail(store, passkeys)({ tenantId: 'tenant-a', userId: 'a9' });
    assert.equal(detail.createdAt, 91);
    assert.equal(detail.phoneMasked, '•••• •• 42');
    assert.deepEqual(
      detail.passkeys.map((k) => [
        k.credentialId,
        k.model,
        k.createdAt,
        k.lastUsedAt,
        k.deviceId,
        k.deviceName,
      ]),
      [
        ['lost-phone', 'iCloud Keychain', 5, 0, 'phone', 'Unknown device'],
        ['laptop', '', 6, 7, detail.passkeys[1]!.deviceId, 'Unknown device'],
      ],
    );
  });

  it('removes a passkey of the person only; another’s passkey or tenant is not found and nothing changes', async () => {
    const remove = (userId: string, credentialId: string, tenantId = 'tenant-a') =>
      removePasskey(store, passkeys)({ tenantId, userId, credentialId });
    await assert.rejects(remove('a8', 'lost-phone'), notFound);
    await assert.rejects(remove('a9', 'lost-phone', 'tenant-b'), notFound);
    await assert.rejects(remove('a9', 'no-such'), notFound);
    assert.equal((await passkeys.listForUser('a9')).length, 2);
    await remove('a9', 'lost-phone');
    assert.deepEqual(
      (await passkeys.listForUser('a9')).map((k) => k.credentialId),
      ['laptop'],
    );
  });

  it('removes the phone number of a person of the tenant; none to remove says so; another tenant is not found', async () => {
    const remove = (userId: string, tenantId = 'tenant-a') => removePhoneNumber(store)({ tenantId, userId });
    await assert.rejects(remove('a9', 'tenant-b'), notFound);
    assert.deepEqual(await remove('a9'), { removed: true });
    assert.equal((await store.users.get('a9'))?.phoneNumber, undefined);
    assert.deepEqual(await remove('a9'), { removed: false });
  });

  it('masks a phone number to its last two digits', () => {
    assert.equal(maskPhone('+4915112345642'), '•••• •• 42');
    assert.equal(maskPhone(undefined), '');
    assert.equal(maskPhone('7'), '');
  });
});
