import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { type QueryShape, servesByEsr } from '@sesame/mongo';
import { passkeyIndexes } from '../passkeys/passkeys.mongo';
import { userStoreIndexes } from './users.mongo';

const shape = (
  name: string,
  equality: string[],
  sort: Record<string, 1 | -1> = {},
  residual: string[] = [],
): QueryShape => ({ name, equality, sort, range: [], residual });

/**
 * The Mongo queries support's look-ups issue (grpc/support-users.ts: FindUsers, GetUserDetail), per collection,
 * as users.mongo.ts and passkeys.mongo.ts write them. `appId` with an alias is residual: an alias names at
 * most one person per app, so the index narrows to a handful of rows first.
 */
const supportReads: Record<string, QueryShape[]> = {
  users: [
    shape('users.findByEmail', ['email']),
    shape('users.get', ['userId']),
    // userId $in [...]: an equality per value (the people a search found otherwise than by email).
    shape('users.getMany', ['userId']),
    // Issue 38's list of people, newest first; a next page's (createdAt, userId) < cursor is an $or of a range
    // on createdAt and an equality on createdAt with a range on userId, both in the index's order.
    { name: 'users.listNewest', equality: [], sort: { createdAt: -1, userId: -1 }, range: [], residual: [] },
    {
      name: 'users.listNewest, branch createdAt <',
      equality: [],
      sort: { createdAt: -1, userId: -1 },
      range: ['createdAt'],
      residual: [],
    },
    {
      name: 'users.listNewest, branch createdAt =, userId <',
      equality: ['createdAt'],
      sort: { userId: -1 },
      range: ['userId'],
      residual: [],
    },
    // The start of an address: a range on the unique email index (addresses are stored lower-cased).
    { name: 'users.findByEmailPrefix', equality: [], sort: { email: 1 }, range: ['email'], residual: [] },
  ],
  app_memberships: [
    shape('memberships.listForUser', ['tenantId', 'userId'], { firstLoginAt: 1 }),
    // With the app named, the unique key finds at most one row: its first-login sort has nothing to order.
    shape('memberships.listForUser(app), one row by the unique key', ['tenantId', 'userId', 'appId']),
    shape('memberships.findByAlias', ['tenantId', 'alias'], { firstLoginAt: 1 }),
    shape('memberships.findByAlias(app)', ['tenantId', 'alias'], { firstLoginAt: 1 }, ['appId']),
    // FindUsers' one read of memberships: an $or of two branches, each served by its own index (MongoDB plans
    // an $or branch by branch); the few rows found are ordered in the process, not by the server.
    shape('memberships.findByUsersOrAlias, branch userId $in', ['tenantId', 'userId']),
    shape('memberships.findByUsersOrAlias, branch alias', ['tenantId', 'alias']),
    shape('memberships.findByUsersOrAlias, branch alias(app)', ['tenantId', 'alias'], {}, ['appId']),
  ],
  user_devices: [shape('devices.listForUser', ['userId'], { registeredAt: 1 })],
  device_access: [shape('deviceAccess.listForUser', ['tenantId', 'userId'], { deviceId: 1 })],
  passkeys: [shape('passkeys.listForUser', ['userId'], { createdAt: 1 })],
};
const residualAllowed = new Set(['appId']);

describe("auth indexes: every query of support's look-ups has an index (ESR)", () => {
  const indexes = { ...userStoreIndexes(), passkeys: passkeyIndexes() };
  const cases = Object.entries(supportReads).flatMap(([collection, shapes]) =>
    shapes.map((s) => [s.name, collection, s] as const),
  );

  it.each(cases)('%s', (_name, collection, s) => {
    const declared = indexes[collection as keyof typeof indexes] ?? [];
    assert.ok(
      declared.some((index) => servesByEsr(index, s)),
      `no index of ${collection} serves ${s.name}: ${JSON.stringify(declared)}`,
    );
    for (const field of s.residual) assert.ok(residualAllowed.has(field), field);
  });

  it('the newest-first list fails without its index (the created-at sort must be in one)', () => {
    const s = supportReads.users!.find((q) => q.name === 'users.listNewest')!;
    assert.equal(
      ([{ userId: 1 }, { email: 1 }] as const).some((index) => servesByEsr(index, s)),
      false,
    );
  });

  it('the search by the start of an address fails without the email index (no other index ranges on it)', () => {
    const s = supportReads.users!.find((q) => q.name === 'users.findByEmailPrefix')!;
    const others = userStoreIndexes().users!.filter((index) => !('email' in index));
    assert.ok(others.length > 0);
    assert.equal(
      others.some((index) => servesByEsr(index, s)),
      false,
    );
  });

  it('fails without the index (the sort must be in it)', () => {
    const s = supportReads.app_memberships![0]!;
    assert.equal(servesByEsr({ tenantId: 1, userId: 1 }, s), false);
  });
});
