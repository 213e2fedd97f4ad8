import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { MemoryEventBus } from '@sesame/events';
import { MemoryKeyValueStore } from '@sesame/kv';
import { GrpcStatus, createLogger, isGrpcStatus } from '@sesame/platform';
import { events, type directory, type keys, topics } from '@sesame/proto';
import { type BrowserSession, SessionManager, type SignedIn } from '../session/browser-session';
import { client } from '../testing/hosted-test-client';
import { memoryUserStore } from '../users';
import { userSessionsGrpc } from './user-sessions';

const chromeOnLinux = {
  deviceName: 'Linux PC',
  osType: 'Linux',
  osVersion: 'Unknown',
  browserType: 'Chrome',
  browserVersion: '156.0',
};
const shop: directory.Client = { ...client, backchannelLogoutUri: 'https://rp.example/backchannel-logout' };
const blog: directory.Client = { ...client, clientId: 'client-2', appId: 'app-2', appName: 'Blog' };
const res = { append: () => res } as never;

/** Users gRPC's session methods over real sessions in memory, an Ann of tenant-1 and what they signed/published. */
async function harness() {
  const kv = new MemoryKeyValueStore();
  const sessions = new SessionManager(kv, { ttlMs: 3_600_000, secure: false });
  const users = memoryUserStore();
  const bus = new MemoryEventBus();
  const signed: keys.SignLogoutTokenRequest[] = [];
  const clients = new Map([shop, blog].map((c) => [c.clientId, c]));
  const grpc = userSessionsGrpc({
    users,
    sessions,
    location: {
      lookup: (ip) => (ip === '203.0.113.7' ? { city: 'Berlin', country: 'DE', source: 'test' } : undefined),
    },
    backchannel: {
      issuer: 'http://localhost',
      logger: createLogger({ service: 'test', level: 'silent' }),
      getClient: async (id) => clients.get(id),
      signLogoutToken: async (request) => {
        signed.push(request);
        return `logout-token-${signed.length}`;
      },
      publisher: bus.publisher,
      now: Date.now,
    },
  });
  const ann = { userId: 'ann', email: 'ann@example.com', createdAt: 1 };
  await users.users.create(ann);
  for (const tenantId of ['tenant-1', 'tenant-2']) {
    await users.memberships.save({
      tenantId,
      appId: 'app-1',
      userId: 'ann',
      acrValues: [],
      confirmed: false,
      firstLoginAt: 1,
      lastLoginAt: 1,
    });
  }
  /** A browser where Ann signed in to `clients` of `tenantId`. */
  const signIn = async (sid: string, clientIds: string[], tenantId = 'tenant-1'): Promise<BrowserSession> => {
    const who: SignedIn = {
      userId: 'ann',
      tenantId,
      method: 'email_otp',
      authTime: Date.now(),
      sid,
      clients: clientIds,
    };
    const started = (await sessions.startSession()).value;
    return sessions.rotate(res, started, who, { device: chromeOnLinux, clientIp: '203.0.113.7' });
  };
  const notices = () => {
    const batch = bus.nextBatch('test', [topics.logoutNotices], true, 1000) ?? [];
    bus.commit('test', batch);
    return batch.map((e) => events.LogoutNotice.decode(e.value));
  };
  return { grpc, sessions, users, signed, signIn, notices };
}

const notFound = (err: unknown) => isGrpcStatus(err, GrpcStatus.NOT_FOUND);

describe('Users gRPC: a person’s sessions, sign out everywhere, disable (issue 38)', () => {
  it('lists the person’s sessions of the tenant only: device, place, started, last seen, applications', async () => {
    const h = await harness();
    await h.signIn('sid-1', ['client-1']);
    await h.signIn('sid-2', ['client-1', 'client-2']);
    await h.signIn('sid-other', ['client-b'], 'tenant-2');
    const { sessions } = await h.grpc.listUserSessions({ tenantId: 'tenant-1', userId: 'ann' });
    assert.deepEqual(sessions.map((s) => s.sid).sort(), ['sid-1', 'sid-2']);
    const two = sessions.find((s) => s.sid === 'sid-2')!;
    assert.deepEqual(
      [two.deviceName, two.osType, two.osVersion, two.browserType, two.browserVersion, two.place],
      ['Linux PC', 'Linux', '', 'Chrome', '156.0', 'Berlin, DE'],
    );
    assert.deepEqual(two.clientIds, ['client-1', 'client-2']);
    assert.ok(two.startedAt > 0 && two.lastSeenAt >= two.startedAt);
    await assert.rejects(h.grpc.listUserSessions({ tenantId: 'tenant-3', userId: 'ann' }), notFound);
    await assert.rejects(h.grpc.listUserSessions({ tenantId: '', userId: 'ann' }), (err) =>
      isGrpcStatus(err, GrpcStatus.INVALID_ARGUMENT),
    );
  });

  it('sign out everywhere ends every session of the tenant and sends each app a back-channel logout', async () => {
    const h = await harness();
    await h.signIn('sid-1', ['client-1']);
    await h.signIn('sid-2', ['client-1', 'client-2']);
    const kept = await h.signIn('sid-other', ['client-1'], 'tenant-2');
    h.notices();
    const out = await h.grpc.signOutEverywhere({ tenantId: 'tenant-1', userId: 'ann' });
    assert.equal(out.endedSessions, 2);
    assert.deepEqual(out.notifiedClientIds, ['client-1'], 'only Shop registered a back-channel logout URI');
    assert.deepEqual((await h.grpc.listUserSessions({ tenantId: 'tenant-1', userId: 'ann' })).sessions, []);
    assert.deepEqual(h.signed.map((s) => [s.audience, s.sub, s.sid]).sort(), [
      ['client-1', 'ann', 'sid-1'],
      ['client-1', 'ann', 'sid-2'],
    ]);
    const notices = h.notices();
    assert.deepEqual(
      notices.map((n) => [n.clientId, n.backchannelLogoutUri]),
      [
        ['client-1', 'https://rp.example/backchannel-logout'],
        ['client-1', 'https://rp.example/backchannel-logout'],
      ],
    );
    assert.equal(
      (await h.sessions.listForUser('tenant-2', 'ann'))[0]?.key,
      kept.key,
      'another tenant’s stays',
    );
    const again = await h.grpc.signOutEverywhere({ tenantId: 'tenant-1', userId: 'ann' });
    assert.deepEqual(again, { endedSessions: 0, notifiedClientIds: [] });
    await assert.rejects(h.grpc.signOutEverywhere({ tenantId: 'tenant-3', userId: 'ann' }), notFound);
  });

  it('signs out 20 sessions in under 200 ms', async () => {
    const h = await harness();
    for (let i = 0; i < 20; i++) await h.signIn(`sid-${i}`, ['client-1', 'client-2']);
    const started = performance.now();
    const out = await h.grpc.signOutEverywhere({ tenantId: 'tenant-1', userId: 'ann' });
    const took = performance.now() - started;
    assert.equal(out.endedSessions, 20);
    assert.equal(h.signed.length, 20);
    assert.ok(took < 200, `took ${took.toFixed(1)} ms`);
  });

  it('disables the person in the tenant only, enables them again; an outsider is not found', async () => {
    const h = await harness();
    const { changedAt } = await h.grpc.setUserDisabled({
      tenantId: 'tenant-1',
      userId: 'ann',
      disabled: true,
    });
    assert.deepEqual((await h.users.users.get('ann'))?.disabledIn, { 'tenant-1': changedAt });
    await h.grpc.setUserDisabled({ tenantId: 'tenant-1', userId: 'ann', disabled: false });
    assert.equal((await h.users.users.get('ann'))?.disabledIn, undefined);
    await assert.rejects(
      h.grpc.setUserDisabled({ tenantId: 'tenant-3', userId: 'ann', disabled: true }),
      notFound,
    );
    assert.equal((await h.users.users.get('ann'))?.disabledIn, undefined);
  });
});
