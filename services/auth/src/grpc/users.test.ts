import assert from 'node:assert/strict';
import { afterAll, beforeAll, beforeEach, describe, it } from '@jest/globals';
import { GrpcStatus, isGrpcStatus } from '@sesame/platform';
import { users } from '@sesame/proto';
import {
  type UsersClient,
  type UsersGrpcHarness,
  rejectsWith,
  startUsersGrpc,
  usersService,
} from '../testing/users-grpc';
import { type UserStore, memoryUserStore } from '../users';
import { membership } from '../users/users.contract';
import { usersGrpc } from './users-grpc';

const { USER_IDENTIFIER_TYPE_USER_ID: USER_ID, USER_IDENTIFIER_TYPE_ALIAS: ALIAS } = users.UserIdentifierType;
const { REMOVAL_SCOPE_APP: APP, REMOVAL_SCOPE_TENANT: TENANT } = users.RemovalScope;

describe('Users gRPC: RemoveUser, LookupUser, BlockDevice', () => {
  let store: UserStore;
  let grpc: UsersGrpcHarness;
  let client: UsersClient;
  const clock = { now: () => 1_234 };

  beforeAll(async () => {
    // CreateActivationLink and CreateInteractiveFlow are tested with their own dependencies in their own files.
    grpc = await startUsersGrpc(
      usersService({
        removeUser: (req) => usersGrpc(store, clock).removeUser(req, undefined as never),
        lookupUser: (req) => usersGrpc(store, clock).lookupUser(req, undefined as never),
        blockDevice: (req) => usersGrpc(store, clock).blockDevice(req, undefined as never),
      }),
    );
    client = await grpc.client();
  });
  afterAll(() => grpc.stop());

  // Tenant t1 has apps a1, a2; tenant t2 has app b1. User u is in all three, user v in a1.
  beforeEach(async () => {
    store = memoryUserStore();
    await store.users.create({ userId: 'u', email: 'u@example.com', createdAt: 1 });
    await store.users.create({ userId: 'v', createdAt: 1 });
    await store.memberships.save(membership('t1', 'a1', 'u', { alias: 'ursula' }));
    await store.memberships.save(membership('t1', 'a2', 'u', { alias: 'ursula-2' }));
    await store.memberships.save(membership('t2', 'b1', 'u', { alias: 'ursula' }));
    await store.memberships.save(membership('t1', 'a1', 'v', { alias: 'victor' }));
  });

  /** A RemoveUser request for user id u in tenant t1, unless `over` says otherwise. */
  const removal = (over: Partial<users.RemoveUserRequest>): users.RemoveUserRequest => ({
    tenantId: 't1',
    identifierType: USER_ID,
    identifier: 'u',
    scope: TENANT,
    appId: '',
    ...over,
  });

  /** Asserts RemoveUser refuses each request with `code` (the failure names the request). */
  const refusesEach = async (requests: users.RemoveUserRequest[], code: GrpcStatus) => {
    for (const request of requests)
      await assert.rejects(client.removeUser(request), rejectsWith(code), JSON.stringify(request));
  };

  const remaining = async () => {
    const out: string[] = [];
    for (const [t, a, u] of [
      ['t1', 'a1', 'u'],
      ['t1', 'a2', 'u'],
      ['t2', 'b1', 'u'],
      ['t1', 'a1', 'v'],
    ] as const) {
      if (await store.memberships.get(t, a, u)) out.push(`${t}/${a}/${u}`);
    }
    return out;
  };

  it('scope APP removes exactly that association (alias, ACR values, custom data with it); the user stays', async () => {
    const res = await client.removeUser(removal({ scope: APP, appId: 'a1' }));
    assert.deepEqual(res, { userId: 'u', removedMemberships: 1 });
    assert.deepEqual(await remaining(), ['t1/a2/u', 't2/b1/u', 't1/a1/v']);
    assert.deepEqual(await store.users.get('u'), { userId: 'u', email: 'u@example.com', createdAt: 1 });
    assert.deepEqual(
      await store.memberships.findByAlias('t1', 'ursula'),
      [],
      'the alias went with the membership',
    );
  });

  it('scope TENANT removes every association with that tenant and none with another tenant', async () => {
    const res = await client.removeUser(removal({ scope: TENANT }));
    assert.deepEqual(res, { userId: 'u', removedMemberships: 2 });
    assert.deepEqual(await remaining(), ['t2/b1/u', 't1/a1/v']);
  });

  it('an alias is resolved within the tenant (and the app when given)', async () => {
    await client.removeUser(
      removal({ identifierType: ALIAS, identifier: 'ursula', scope: APP, appId: 'a1' }),
    );
    assert.deepEqual(await remaining(), ['t1/a2/u', 't2/b1/u', 't1/a1/v']);
    await client.removeUser(removal({ identifierType: ALIAS, identifier: 'victor', scope: TENANT }));
    assert.deepEqual(await remaining(), ['t1/a2/u', 't2/b1/u']);
  });

  it('after removal the user counts as new for the app: no membership, same user id', async () => {
    await client.removeUser(removal({ scope: APP, appId: 'a1' }));
    assert.equal(await store.memberships.get('t1', 'a1', 'u'), undefined);
    const seen = await client.lookupUser({
      tenantId: 't1',
      identifierType: USER_ID,
      identifier: 'u',
      appId: '',
    });
    assert.equal(seen.userId, 'u');
    assert.deepEqual(
      seen.memberships.map((m) => m.appId),
      ['a2'],
    );
  });

  it('NOT_FOUND for an unknown user, a user of another tenant only, an app the user is not in, and twice', async () => {
    const cases: users.RemoveUserRequest[] = [
      { tenantId: 't1', identifierType: USER_ID, identifier: 'nobody', scope: TENANT, appId: '' },
      { tenantId: 't3', identifierType: USER_ID, identifier: 'u', scope: TENANT, appId: '' },
      { tenantId: 't1', identifierType: USER_ID, identifier: 'v', scope: APP, appId: 'a2' },
      { tenantId: 't2', identifierType: ALIAS, identifier: 'victor', scope: TENANT, appId: '' },
    ];
    await refusesEach(cases, GrpcStatus.NOT_FOUND);
    await client.removeUser(removal({ tenantId: 't2', scope: TENANT }));
    await assert.rejects(client.removeUser(removal({ tenantId: 't2', scope: TENANT })), (e) =>
      isGrpcStatus(e, GrpcStatus.NOT_FOUND),
    );
    assert.deepEqual(await remaining(), ['t1/a1/u', 't1/a2/u', 't1/a1/v']);
  });

  it('INVALID_ARGUMENT for a missing tenant, identifier, type or scope, or scope APP without app_id', async () => {
    const bad: users.RemoveUserRequest[] = [
      { tenantId: '', identifierType: USER_ID, identifier: 'u', scope: TENANT, appId: '' },
      { tenantId: 't1', identifierType: USER_ID, identifier: '', scope: TENANT, appId: '' },
      {
        tenantId: 't1',
        identifierType: users.UserIdentifierType.USER_IDENTIFIER_TYPE_UNSPECIFIED,
        identifier: 'u',
        scope: TENANT,
        appId: '',
      },
      {
        tenantId: 't1',
        identifierType: USER_ID,
        identifier: 'u',
        scope: users.RemovalScope.REMOVAL_SCOPE_UNSPECIFIED,
        appId: '',
      },
      { tenantId: 't1', identifierType: USER_ID, identifier: 'u', scope: APP, appId: '' },
    ];
    await refusesEach(bad, GrpcStatus.INVALID_ARGUMENT);
    assert.equal((await remaining()).length, 4);
  });

  it('an alias two users of the tenant carry is FAILED_PRECONDITION unless the app is named', async () => {
    await store.memberships.save(membership('t1', 'a2', 'v', { alias: 'ursula' }));
    await assert.rejects(
      client.removeUser(removal({ identifierType: ALIAS, identifier: 'ursula', scope: TENANT })),
      (e) => isGrpcStatus(e, GrpcStatus.FAILED_PRECONDITION),
    );
    const res = await client.removeUser(
      removal({ identifierType: ALIAS, identifier: 'ursula', scope: APP, appId: 'a1' }),
    );
    assert.equal(res.userId, 'u');
  });

  it('BlockDevice records the decision for a user of the tenant; NOT_FOUND for a user the tenant does not know', async () => {
    assert.deepEqual(
      await client.blockDevice({ tenantId: 't1', userId: 'u', deviceId: 'd1', allowAccess: false }),
      { changedAt: 1_234 },
    );
    assert.deepEqual(await store.deviceAccess.get('t1', 'u', 'd1'), {
      tenantId: 't1',
      userId: 'u',
      deviceId: 'd1',
      allowAccess: false,
      changedAt: 1_234,
    });
    await assert.rejects(
      client.blockDevice({ tenantId: 't2', userId: 'v', deviceId: 'd1', allowAccess: false }),
      (e) => isGrpcStatus(e, GrpcStatus.NOT_FOUND),
    );
  });
});
