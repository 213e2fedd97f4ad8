import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
// The real activity-log and auth pieces (devDependencies: services never import each other at run time).
import { libraryOn, silentLogger } from '@sesame/activity-log-service/testing/real-kafka';
import {
  createPasskeyStore,
  createUserStore,
  findUsers,
  getUserDetail,
  listUsers,
  removePasskey,
  removePhoneNumber,
} from '@sesame/auth-service';
import { GrpcServer, createClient, notImplemented } from '@sesame/platform';
import { activitylogs, users } from '@sesame/proto';
import { startedForSuite } from '@sesame/testing/suite';
import { supportFlowsPeer } from '../peers';
import { startRealActivityLog } from '../testing/real-activity-log';
import { createSupportPort } from './grpc-support';
import type { SupportPort } from './port';

const T0 = 1_700_000_000_000;

async function eventually<T>(read: () => Promise<T>, done: (v: T) => boolean, ms = 60_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (done(v) || Date.now() > until) return v;
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * The support port as mgmt builds it, over real gRPC to auth's Users handlers (Mongo user store) and to
 * activity-log (Kafka consumer into the Mongo-wire server): issue 24's data path end to end.
 */
describe('support port over gRPC, Kafka and the Mongo-wire server', () => {
  const log = startedForSuite(() => startRealActivityLog('support-data'));
  let port: SupportPort;
  const closers: (() => Promise<void> | void)[] = [];

  beforeAll(async () => {
    // Reads only: the membership lock store is never used here.
    const store = createUserStore(log.pipeline.conn, {} as never);
    const passkeys = createPasskeyStore(log.pipeline.conn);
    await store.users.create({ userId: 'alice-id', email: 'alice@example.com', createdAt: 1 });
    await store.users.create({ userId: 'carol-id', email: 'carol@example.com', createdAt: 1 });
    await store.memberships.save({
      tenantId: 'tenant-a',
      appId: 'app-1',
      userId: 'alice-id',
      alias: 'al',
      acrValues: [],
      confirmed: true,
      firstLoginAt: T0,
      lastLoginAt: T0,
      deviceLogins: { 'dev-1': { firstLoginAt: T0, lastLoginAt: T0 } },
    });
    await store.memberships.save({
      tenantId: 'tenant-b',
      appId: 'app-b',
      userId: 'carol-id',
      acrValues: [],
      confirmed: true,
      firstLoginAt: T0,
      lastLoginAt: T0,
    });
    await store.deviceAccess.set({
      tenantId: 'tenant-a',
      userId: 'alice-id',
      deviceId: 'dev-1',
      allowAccess: false,
      changedAt: T0,
    });

    const server = new GrpcServer({ logger: silentLogger });
    server.add<users.UsersServiceServer>(users.UsersServiceService, {
      removeUser: notImplemented,
      lookupUser: notImplemented,
      blockDevice: notImplemented,
      createInteractiveFlow: notImplemented,
      createActivationLink: notImplemented,
      findUsers: findUsers(store),
      getUserDetail: getUserDetail(store, passkeys),
      listUserSessions: notImplemented,
      signOutEverywhere: notImplemented,
      setUserDisabled: notImplemented,
      listUsers: listUsers(store, passkeys),
      removePasskey: removePasskey(store, passkeys),
      removePhoneNumber: removePhoneNumber(store),
    });
    server.add<activitylogs.ActivityLogsServiceServer>(activitylogs.ActivityLogsServiceService, log.handlers);
    const grpcPort = await server.start(0, '127.0.0.1');
    const usersClient = createClient(users.UsersServiceClient, `127.0.0.1:${grpcPort}`);
    const logsClient = createClient(activitylogs.ActivityLogsServiceClient, `127.0.0.1:${grpcPort}`);
    port = createSupportPort({
      users: usersClient,
      flows: supportFlowsPeer(logsClient),
      appName: async (_tenant, appId) => (appId === 'app-1' ? 'Shop' : undefined),
    });
    closers.push(
      () => usersClient.close(),
      () => logsClient.close(),
      () => server.stop(1000),
    );

    // One success, then five wrong codes: every event of the failed flow names the person (auth does so).
    const events = libraryOn(log.pipeline);
    const base = { tenantId: 'tenant-a', appId: 'app-1', clientIp: '198.51.100.9' } as const;
    await events.record({
      ...base,
      flowId: 'ok',
      timestamp: T0,
      action: 'auth_start_oidc',
      flowType: 'authentication',
    });
    await events.record({
      ...base,
      flowId: 'ok',
      timestamp: T0 + 1,
      action: 'auth_complete',
      userId: 'alice-id',
      email: 'alice@example.com',
      status: 'success',
    });
    for (let i = 0; i < 5; i++) {
      await events.record({
        ...base,
        flowId: 'failed',
        timestamp: T0 + 100 + i,
        action: 'email_verification_failure',
        userId: 'alice-id',
        email: 'alice@example.com',
        authMethodType: 'email_otp',
        ...(i === 4 ? { status: 'failure', errorCode: 'auth_failure' } : {}),
      });
    }
    await events.record({
      tenantId: 'tenant-b',
      appId: 'app-b',
      clientIp: '198.51.100.9',
      flowId: 'theirs',
      timestamp: T0 + 50,
      action: 'auth_complete',
      userId: 'alice-id',
      status: 'success',
    });
  });
  afterAll(async () => {
    for (const close of closers) await close();
  });

  it('finds the person by email, exactly and case-insensitively; another tenant finds nobody', async () => {
    assert.deepEqual(await port.findUsers('tenant-a', 'ALICE@example.com'), [
      { userId: 'alice-id', email: 'alice@example.com', matchedBy: 'email' },
    ]);
    assert.deepEqual(await port.findUsers('tenant-b', 'alice@example.com'), []);
    assert.deepEqual(await port.findUsers('tenant-a', 'carol@example.com'), []);
    for (const q of ['{"$ne":null}', '.*', '^a']) assert.deepEqual(await port.findUsers('tenant-a', q), []);
    await assert.rejects(
      port.findUsers('tenant-a', 'x'.repeat(10_240)),
      (e: unknown) => (e as { status?: number }).status === 400,
    );
  });

  it("the person's page: devices (blocked) and memberships with app names; another tenant's is undefined", async () => {
    const d = await port.userDetail('tenant-a', 'alice-id');
    assert.deepEqual(d?.memberships, [
      { appId: 'app-1', appName: 'Shop', alias: 'al', firstLogin: T0, lastLogin: T0, confirmed: true },
    ]);
    assert.deepEqual(
      d?.devices.map((x) => [x.deviceId, x.blocked]),
      [['dev-1', true]],
    );
    assert.equal(await port.userDetail('tenant-b', 'alice-id'), undefined);
    assert.equal(await port.userDetail('tenant-a', 'carol-id'), undefined);
  });

  it("the person's flows newest first, the failed one included, with the email; export and one flow alike", async () => {
    const page = await eventually(
      () => port.listFlows('tenant-a', { userId: 'alice-id' }, 50),
      (pg) => pg.flows.length === 2 && pg.flows[0]!.events.length === 5,
    );
    assert.deepEqual(
      page.flows.map((f) => [f.id, f.status, f.errorCode, f.email]),
      [
        ['failed', 'failure', 'auth_failure', 'alice@example.com'],
        ['ok', 'success', undefined, 'alice@example.com'],
      ],
    );
    assert.equal(page.nextCursor, undefined);
    const first = await port.listFlows('tenant-a', { userId: 'alice-id' }, 1);
    assert.equal(first.flows[0]?.id, 'failed');
    const second = await port.listFlows('tenant-a', { userId: 'alice-id' }, 1, first.nextCursor);
    assert.deepEqual(
      second.flows.map((f) => f.id),
      ['ok'],
    );
    assert.equal((await port.getFlow('tenant-a', 'failed'))?.events.length, 5);
    assert.equal(await port.getFlow('tenant-a', 'theirs'), undefined, "another tenant's flow");
    const exported: string[] = [];
    for await (const batch of port.exportFlows('tenant-a', {})) exported.push(...batch.map((r) => r.id));
    assert.deepEqual(exported, ['failed', 'ok']);
    const failures: string[] = [];
    for await (const batch of port.exportFlows('tenant-a', { status: 'failure' }))
      failures.push(...batch.map((r) => r.id));
    assert.deepEqual(failures, ['failed']);
  });
});
