import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { MemoryKeyValueStore } from '@sesame/kv';
import {
  GrpcServer,
  GrpcStatus,
  type PromiseClient,
  createClient,
  createLogger,
  isGrpcStatus,
  notImplemented,
} from '@sesame/platform';
import { users } from '@sesame/proto';
import { type TestPki, createTestPki } from '@sesame/testing';
import { EnrollmentLinks } from '../journeys/enrollment/links';
import { memoryUserStore } from '../users';
import { createInteractiveFlow } from './create-interactive-flow';

const request: users.CreateInteractiveFlowRequest = {
  tenantId: 't1',
  appId: 'a1',
  clientId: 'c1',
  userId: 'u1',
  purpose: 'device_enrollment',
  redirectUri: 'https://rp.example/done',
  state: 's-1',
};
const rejectsWith = (code: GrpcStatus) => (err: unknown) => isGrpcStatus(err, code);

describe('Users.CreateInteractiveFlow over mTLS: only mgmt may call it', () => {
  let pki: TestPki;
  let server: GrpcServer;
  let port: number;
  let links: EnrollmentLinks;
  const clients: Array<{ close(): void }> = [];
  const clientAs = async (service: string): Promise<PromiseClient<users.UsersServiceClient>> => {
    const tls = { ...(await pki.issue(service)), refreshMs: 60_000 };
    const client = createClient(users.UsersServiceClient, `localhost:${port}`, { tls, deadlineMs: 3000 });
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    pki = await createTestPki('cluster');
    const store = memoryUserStore();
    await store.users.create({ userId: 'u1', email: 'u1@example.com', createdAt: 1 });
    links = new EnrollmentLinks(new MemoryKeyValueStore(), {
      hashKey: 'k'.repeat(32),
      ttlMs: 300_000,
      now: () => 1000,
    });
    server = new GrpcServer(
      { logger: createLogger({ service: 'auth', level: 'silent' }) },
      { tls: { ...(await pki.issue('auth')), refreshMs: 60_000 } },
    );
    server.add<users.UsersServiceServer>(users.UsersServiceService, {
      removeUser: notImplemented,
      lookupUser: notImplemented,
      blockDevice: notImplemented,
      createActivationLink: notImplemented,
      findUsers: notImplemented,
      getUserDetail: notImplemented,
      createInteractiveFlow: createInteractiveFlow({
        users: store.users,
        links,
        authUrl: 'https://auth.example/',
      }),
    });
    port = await server.start(0, '127.0.0.1');
    server.setServing(true);
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await server.stop(1000);
  });

  it('answers mgmt with a single-use URL on auth_url bound to the user and app, expiring after the TTL', async () => {
    const res = await (await clientAs('mgmt')).createInteractiveFlow(request);
    assert.match(res.url, /^https:\/\/auth\.example\/enroll\/[\w-]{43}$/);
    assert.equal(res.expiresAt, 1000 + 300_000);
    const token = res.url.split('/').at(-1)!;
    assert.deepEqual(await links.take(token), {
      tenantId: 't1',
      appId: 'a1',
      clientId: 'c1',
      userId: 'u1',
      purpose: 'device_enrollment',
      redirectUri: 'https://rp.example/done',
      state: 's-1',
      createdAt: 1000,
    });
    assert.equal(await links.take(token), undefined, 'single use');
  });

  it('refuses every other service with PERMISSION_DENIED', async () => {
    for (const peer of ['token', 'auth', 'jwks', 'activity-log', 'ciba-notifier']) {
      await assert.rejects(
        (await clientAs(peer)).createInteractiveFlow(request),
        rejectsWith(GrpcStatus.PERMISSION_DENIED),
      );
    }
  });

  it('INVALID_ARGUMENT for another purpose or a missing field; NOT_FOUND for an unknown user', async () => {
    const mgmt = await clientAs('mgmt');
    for (const bad of [
      { purpose: 'registration' },
      { purpose: '' },
      { userId: '' },
      { redirectUri: '' },
      { tenantId: '' },
    ]) {
      await assert.rejects(
        mgmt.createInteractiveFlow({ ...request, ...bad }),
        rejectsWith(GrpcStatus.INVALID_ARGUMENT),
      );
    }
    await assert.rejects(
      mgmt.createInteractiveFlow({ ...request, userId: 'nobody' }),
      rejectsWith(GrpcStatus.NOT_FOUND),
    );
  });
});
