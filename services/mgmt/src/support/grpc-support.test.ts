import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { GrpcError, GrpcStatus, MgmtError } from '@sesame/platform';
import { type activitylogs, users } from '@sesame/proto';
import type { SupportFlowsPeer, SupportUsersPeer } from '../peers';
import { createSupportPort } from './grpc-support';

const record = (
  id: string,
  extra: Partial<activitylogs.ActivityLogRecord> = {},
): activitylogs.ActivityLogRecord => ({
  id,
  applicationId: 'shop',
  businessUnit: 'tenant-a',
  timestamp: 1000,
  userId: 'alice-id',
  status: 'failure',
  events: [{ id: 'e1', timestamp: 1000, flowId: id, details: { action: 'email_verification_failure' } }],
  ...extra,
});

/** Fake peers recording what the port asked. */
function fakes() {
  const calls: { method: string; request: unknown }[] = [];
  const usersPeer: SupportUsersPeer = {
    async listUsers(request) {
      calls.push({ method: 'listUsers', request });
      return {
        users: [
          { userId: 'u2', email: 'b@example.com', createdAt: 2, lastSignIn: 0, disabledAt: 5, passkeys: 1 },
        ],
        nextCursor: 'next-page',
      };
    },
    async removePasskey(request) {
      calls.push({ method: 'removePasskey', request });
      if (request.credentialId !== 'lost') throw new GrpcError(GrpcStatus.NOT_FOUND, 'passkey not found');
      return {};
    },
    async removePhoneNumber(request) {
      calls.push({ method: 'removePhoneNumber', request });
      if (request.userId !== 'alice-id') throw new GrpcError(GrpcStatus.NOT_FOUND, 'user not found');
      return { removed: true };
    },
    async findUsers(request) {
      calls.push({ method: 'findUsers', request });
      if (request.query === 'boom') throw new GrpcError(GrpcStatus.UNAVAILABLE, 'down');
      if (request.query === 'refused')
        throw Object.assign(new Error('x'), {
          code: GrpcStatus.INVALID_ARGUMENT,
          details: 'query is too long',
        });
      return {
        users: [
          { userId: 'alice-id', email: 'alice@example.com', matchedBy: users.UserMatch.USER_MATCH_EMAIL },
        ],
      };
    },
    async getUserDetail(request) {
      calls.push({ method: 'getUserDetail', request });
      if (request.userId !== 'alice-id') throw Object.assign(new Error('nf'), { code: GrpcStatus.NOT_FOUND });
      return {
        userId: 'alice-id',
        email: 'alice@example.com',
        createdAt: 0,
        phoneMasked: '',
        passkeys: [],
        devices: [
          {
            deviceId: 'mac',
            name: 'Mac',
            os: 'macOS 14',
            browser: 'Chrome 120',
            firstSeen: 1,
            lastSeen: 2,
            passkeys: 1,
            blocked: true,
          },
        ],
        memberships: [
          { appId: 'shop', alias: 'al', acrValues: [], confirmed: true, firstLogin: 10, lastLogin: 20 },
          { appId: 'gone', alias: '', acrValues: [], confirmed: false, firstLogin: 0, lastLogin: 0 },
        ],
        disabledAt: request.tenantId === 'tenant-off' ? 1234 : 0,
      };
    },
    async listUserSessions(request) {
      calls.push({ method: 'listUserSessions', request });
      if (request.userId !== 'alice-id') throw Object.assign(new Error('nf'), { code: GrpcStatus.NOT_FOUND });
      return {
        sessions: [
          {
            sid: 'sid-1',
            deviceName: 'Linux PC',
            osType: 'Linux',
            osVersion: '',
            browserType: 'Chrome',
            browserVersion: '156.0.7000.1',
            place: 'Berlin, DE',
            startedAt: 100,
            lastSeenAt: 200,
            clientIds: ['shop-client', 'gone-client'],
          },
        ],
      };
    },
  };
  const flowsPeer: SupportFlowsPeer = {
    async listAttemptedEmails(request) {
      calls.push({ method: 'listAttemptedEmails', request });
      if (request.prefix === 'down') throw Object.assign(new Error('down'), { code: GrpcStatus.UNAVAILABLE });
      return { emails: ['ghost@example.com', 'ghosted@example.com'] };
    },
    async listFlows(request) {
      calls.push({ method: 'listFlows', request });
      return {
        flows: [record('f1', { email: 'alice@example.com' })],
        nextCursor: request.cursor ? '' : 'next',
      };
    },
    async getFlow(request) {
      calls.push({ method: 'getFlow', request });
      if (request.flowId !== 'f1') throw Object.assign(new Error('nf'), { code: GrpcStatus.NOT_FOUND });
      return { flow: record('f1') };
    },
    async countFlows(request) {
      calls.push({ method: 'countFlows', request });
      return { count: 3 };
    },
    async eraseFlows(request) {
      calls.push({ method: 'eraseFlows', request });
      if (request.attemptedEmail === 'down@example.com') throw new GrpcError(GrpcStatus.UNAVAILABLE, 'down');
      return { erased: 2 };
    },
    exportFlows(request) {
      calls.push({ method: 'exportFlows', request });
      return (async function* () {
        yield { flows: [record('f2')] };
        yield { flows: [record('f1', { email: 'alice@example.com' })] };
      })();
    },
  };
  const port = createSupportPort({
    users: usersPeer,
    flows: flowsPeer,
    appName: async (tenantId, appId) => (tenantId === 'tenant-a' && appId === 'shop' ? 'Shop' : undefined),
    clientName: async (tenantId, clientId) =>
      tenantId === 'tenant-a' && clientId === 'shop-client' ? 'Shop' : undefined,
  });
  return { port, calls };
}

const status = (code: number) => (e: unknown) => e instanceof MgmtError && e.status === code;

describe('support port over gRPC peers (grpc-support.ts)', () => {
  it('finds users, naming the tenant and the app to auth, and reads the match', async () => {
    const { port, calls } = fakes();
    assert.deepEqual(await port.findUsers('tenant-a', 'Alice@Example.com', 'shop'), [
      { userId: 'alice-id', email: 'alice@example.com', matchedBy: 'email' },
    ]);
    assert.deepEqual(calls[0], {
      method: 'findUsers',
      request: { tenantId: 'tenant-a', query: 'Alice@Example.com', appId: 'shop' },
    });
  });

  it('refuses an empty or 10 KB search before auth is asked; a peer refusal is a 400, an outage a 503', async () => {
    const { port, calls } = fakes();
    await assert.rejects(port.findUsers('tenant-a', 'x'.repeat(10_240)), status(400));
    await assert.rejects(port.findUsers('tenant-a', '  '), status(400));
    await assert.rejects(port.findUsers('tenant-a', { $ne: null } as unknown as string), status(400));
    assert.equal(calls.length, 0);
    await assert.rejects(port.findUsers('tenant-a', 'refused'), status(400));
    await assert.rejects(port.findUsers('tenant-a', 'boom'), status(503));
  });

  it("a user's detail names each app from the directory; NOT_FOUND is undefined", async () => {
    const { port } = fakes();
    const d = await port.userDetail('tenant-a', 'alice-id');
    assert.deepEqual(d?.memberships, [
      { appId: 'shop', appName: 'Shop', alias: 'al', firstLogin: 10, lastLogin: 20, confirmed: true },
      { appId: 'gone', appName: 'gone', confirmed: false },
    ]);
    assert.equal(d?.devices[0]?.blocked, true);
    assert.equal(await port.userDetail('tenant-a', 'carol-id'), undefined);
  });

  it("a person's sessions in plain words, apps named by client id; the disabled date; NOT_FOUND is undefined", async () => {
    const { port, calls } = fakes();
    assert.deepEqual(await port.userSessions('tenant-a', 'alice-id'), [
      {
        sid: 'sid-1',
        deviceName: 'Linux PC',
        os: 'Linux',
        browser: 'Chrome 156',
        place: 'Berlin, DE',
        startedAt: 100,
        lastSeenAt: 200,
        apps: [
          { clientId: 'shop-client', name: 'Shop' },
          { clientId: 'gone-client', name: 'gone-client' },
        ],
      },
    ]);
    assert.deepEqual(calls.at(-1), {
      method: 'listUserSessions',
      request: { tenantId: 'tenant-a', userId: 'alice-id' },
    });
    assert.equal(await port.userSessions('tenant-a', 'carol-id'), undefined);
    assert.equal((await port.userDetail('tenant-a', 'alice-id'))?.disabledAt, undefined);
    assert.equal((await port.userDetail('tenant-off', 'alice-id'))?.disabledAt, 1234);
  });

  it('lists flows as the spec JSON plus the email, passing filter, limit and cursor; limit 1..200', async () => {
    const { port, calls } = fakes();
    const page = await port.listFlows('tenant-a', { userId: 'alice-id', from: 5 }, 50);
    assert.equal(page.nextCursor, 'next');
    const f = page.flows[0]!;
    assert.equal(f.applicationId, 'shop');
    assert.equal(f.email, 'alice@example.com');
    assert.deepEqual(f.events[0], {
      id: 'e1',
      timestamp: 1000,
      payload: { flowId: 'f1', details: { action: 'email_verification_failure' } },
    });
    assert.deepEqual(calls[0]?.request, {
      tenantId: 'tenant-a',
      filter: { userId: 'alice-id', from: 5 },
      limit: 50,
      cursor: '',
    });
    const last = await port.listFlows('tenant-a', {}, 50, 'next');
    assert.equal(last.nextCursor, undefined);
    await assert.rejects(port.listFlows('tenant-a', {}, 201), status(400));
    await assert.rejects(port.listFlows('tenant-a', {}, 0), status(400));
    await assert.rejects(
      port.listFlows('tenant-a', { userId: { $ne: 1 } as unknown as string }, 10),
      status(400),
    );
  });

  it('gets one flow (undefined when NOT_FOUND) and streams an export in order', async () => {
    const { port } = fakes();
    assert.equal((await port.getFlow('tenant-a', 'f1'))?.id, 'f1');
    assert.equal(await port.getFlow('tenant-a', 'other-tenants'), undefined);
    const ids: string[] = [];
    for await (const batch of port.exportFlows('tenant-a', { status: 'failure' }))
      for (const r of batch) ids.push(`${r.id}:${r.email ?? '-'}`);
    assert.deepEqual(ids, ['f2:-', 'f1:alice@example.com']);
  });

  it('counts and erases by typed address, naming the tenant; an empty erasure is a 400 before the peer, an outage a 503', async () => {
    const { port, calls } = fakes();
    assert.equal(await port.countFlows('tenant-a', { attemptedEmail: 'ghost@example.com' }), 3);
    assert.deepEqual(calls[0], {
      method: 'countFlows',
      request: { tenantId: 'tenant-a', filter: { attemptedEmail: 'ghost@example.com' } },
    });
    assert.equal(await port.eraseFlows('tenant-a', { userId: 'u1', attemptedEmail: 'a@example.com' }), 2);
    assert.deepEqual(calls[1], {
      method: 'eraseFlows',
      request: { tenantId: 'tenant-a', userId: 'u1', attemptedEmail: 'a@example.com' },
    });
    await assert.rejects(port.eraseFlows('tenant-a', {}), status(400));
    assert.equal(calls.length, 2);
    await assert.rejects(port.eraseFlows('tenant-a', { attemptedEmail: 'down@example.com' }), status(503));
    const [flow] = (await port.listFlows('tenant-a', { attemptedEmail: 'ghost@example.com' }, 10)).flows;
    assert.equal(flow?.id, 'f1');
    assert.deepEqual((calls.at(-1)?.request as { filter: unknown }).filter, {
      attemptedEmail: 'ghost@example.com',
    });
  });

  it('lists people from auth (disabled when auth says so), removes a passkey or a phone; not found is false/undefined', async () => {
    const { port, calls } = fakes();
    assert.deepEqual(await port.listPeople('tenant-a', 10, 'c1'), {
      people: [{ userId: 'u2', email: 'b@example.com', createdAt: 2, disabled: true, passkeys: 1 }],
      nextCursor: 'next-page',
    });
    assert.deepEqual(calls.at(-1), {
      method: 'listUsers',
      request: { tenantId: 'tenant-a', limit: 10, cursor: 'c1' },
    });
    await assert.rejects(port.listPeople('tenant-a', 0), /limit/);
    assert.equal(await port.removePasskey('tenant-a', 'alice-id', 'lost'), true);
    assert.equal(await port.removePasskey('tenant-a', 'alice-id', 'other'), false);
    assert.equal(await port.removePhoneNumber('tenant-a', 'alice-id'), true);
    assert.equal(await port.removePhoneNumber('tenant-a', 'bob-id'), undefined);
  });

  it('finds the addresses typed by their start, naming the tenant; an outage is a 503', async () => {
    const { port, calls } = fakes();
    assert.deepEqual(await port.attemptedEmails('tenant-a', 'gho', 5), [
      'ghost@example.com',
      'ghosted@example.com',
    ]);
    assert.deepEqual(calls.at(-1), {
      method: 'listAttemptedEmails',
      request: { tenantId: 'tenant-a', prefix: 'gho', limit: 5 },
    });
    await assert.rejects(port.attemptedEmails('tenant-a', 'down', 5), status(503));
  });
});
