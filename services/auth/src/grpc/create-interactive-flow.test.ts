import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { MemoryKeyValueStore } from '@sesame/kv';
import { GrpcStatus } from '@sesame/platform';
import type { users } from '@sesame/proto';
import { createTestPki } from '@sesame/testing';
import { EnrollmentLinks } from '../journeys/enrollment/links';
import { type UsersGrpcHarness, rejectsWith, startUsersGrpc, usersService } from '../testing/users-grpc';
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

describe('Users.CreateInteractiveFlow over mTLS: only mgmt may call it', () => {
  let grpc: UsersGrpcHarness;
  let links: EnrollmentLinks;
  const clientAs = (service: string) => grpc.client(service);

  beforeAll(async () => {
    const store = memoryUserStore();
    await store.users.create({ userId: 'u1', email: 'u1@example.com', createdAt: 1 });
    links = new EnrollmentLinks(new MemoryKeyValueStore(), {
      hashKey: 'k'.repeat(32),
      ttlMs: 300_000,
      now: () => 1000,
    });
    grpc = await startUsersGrpc(
      usersService({
        createInteractiveFlow: createInteractiveFlow({
          users: store.users,
          links,
          authUrl: 'https://auth.example/',
        }),
      }),
      await createTestPki('cluster'),
    );
  });
  afterAll(() => grpc.stop());

  it('answers mgmt with a single-use URL on auth_url bound to the user and app, expiring after the TTL', async () => {
    const res = await (await clientAs('mgmt')).createInteractiveFlow(request);
    assert.match(res.url, /^https:\/\/auth\.example\/enroll\/[\w-]{43}$/);
    assert.equal(res.expiresAt, 1000 + 300_000);
    const token = res.url.split('/').at(-1)!;
    assert.deepEqual(await links.take(token), { ...request, createdAt: 1000 });
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
