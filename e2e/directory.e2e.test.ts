import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it, jest } from '@jest/globals';
import { type UserStore, createUserStore } from '@sesame/auth-service';
import type { Embedded } from '@sesame/embedded';
import { createKeyValueStore } from '@sesame/kv';
import { type Connection, connectMongo } from '@sesame/mongo';
import { eventually } from '@sesame/testing';
import { managementToken, sesame } from './admin-cli';
import { type RealPlatform, startRealPlatform } from './real-platform';

interface Tenant {
  tenantId: string;
  appId: string;
  credentialsId: string;
  token: string;
}

/**
 * Directory and administration across the platform, against the real Redis, Kafka and Mongo-wire servers:
 * CLI → admin API → directory; /token client_credentials → Directory gRPC; management API → Grants
 * introspection and Users (auth's user store on Mongo).
 */
// Each test and hook of this file may take this long (starting processes, load runs).
jest.setTimeout(180_000);

describe('directory and administration end to end', () => {
  let env: RealPlatform;
  let platform: Embedded;
  let conn: Connection;
  let userStore: UserStore;
  let a: Tenant;
  let b: Tenant;

  async function tenant(name: string): Promise<Tenant> {
    const { tenantId } = await sesame(platform, 'tenant', 'create', '--name', name);
    const { appId } = await sesame(
      platform,
      'app',
      'create',
      '--tenant',
      tenantId!,
      '--name',
      name,
      '--redirect-uri',
      'https://rp.example/cb',
    );
    const { credentialsId, apiSecret } = await sesame(
      platform,
      'credentials',
      'create',
      '--tenant',
      tenantId!,
    );
    const token = await managementToken(platform.url, credentialsId!, apiSecret!);
    return { tenantId: tenantId!, appId: appId!, credentialsId: credentialsId!, token };
  }

  const removeUser = (t: Tenant, id: string, query: Record<string, string>) =>
    fetch(`${platform.url}/api/v1/mgmt/users/${encodeURIComponent(id)}?${new URLSearchParams(query)}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${t.token}` },
    });

  const codeOf = async (res: Response) => [
    res.status,
    ((await res.json()) as { error?: { code: string } }).error?.code ?? 'ok',
  ];

  beforeAll(async () => {
    env = await startRealPlatform('directory');
    platform = env.platform;
    conn = await connectMongo(env.mongoUrl, { appName: 'e2e-directory' });
    // Reads and plain saves only: no membership update, so the lock store (Redis in the service) is never used.
    userStore = createUserStore(conn, createKeyValueStore({ owner: 'auth' }));
    a = await tenant('e2e tenant a');
    b = await tenant('e2e tenant b');
  });
  afterAll(async () => {
    await conn?.close();
    await env?.stop();
  });

  it('DELETE users answers every row of its error table on the real stack', async () => {
    const base = { credentialsId: a.credentialsId };
    assert.deepEqual(
      await codeOf(await removeUser(a, 'u', { userIdentifierType: 'user_id', scope: 'tenant' })),
      [400, 'invalid_request'],
    );
    assert.deepEqual(
      await codeOf(await removeUser(a, 'u', { ...base, scope: 'tenant', userIdentifierType: 'sub' })),
      [400, 'invalid_userIdentifierType'],
    );
    assert.deepEqual(
      await codeOf(await removeUser(a, 'u', { ...base, userIdentifierType: 'user_id', scope: 'everything' })),
      [400, 'invalid_scope'],
    );
    assert.deepEqual(
      await codeOf(await removeUser(a, 'u', { ...base, userIdentifierType: 'user_id', scope: 'app' })),
      [400, 'missing_appId'],
    );
    assert.deepEqual(
      await codeOf(
        await removeUser(a, 'nobody', { ...base, userIdentifierType: 'user_id', scope: 'tenant' }),
      ),
      [403, 'user_not_found'],
    );
    assert.deepEqual(
      await codeOf(
        await removeUser({ ...a, token: 'not-a-real-token' }, 'u', {
          ...base,
          userIdentifierType: 'user_id',
          scope: 'tenant',
        }),
      ),
      [401, 'invalid_token'],
    );
  });

  it('removes exactly the association asked for; the other app and the other tenant keep theirs', async () => {
    const user = `user-${Date.now()}`;
    const m = (tenantId: string, appId: string, alias: string) => ({
      tenantId,
      appId,
      userId: user,
      alias,
      acrValues: ['ts.svc.app_bound_cred'],
      customData: { plan: 'x' },
      confirmed: true,
      firstLoginAt: 1,
      lastLoginAt: 2,
    });
    await userStore.users.create({ userId: user, createdAt: 1 });
    await userStore.memberships.save(m(a.tenantId, a.appId, 'alias-a'));
    await userStore.memberships.save(m(a.tenantId, 'second-app-of-a', 'alias-a2'));
    await userStore.memberships.save(m(b.tenantId, b.appId, 'alias-b'));

    const res = await removeUser(a, 'alias-a', {
      credentialsId: a.credentialsId,
      userIdentifierType: 'alias',
      scope: 'app',
      appId: a.appId,
    });
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { status: 'success' });
    assert.equal(await userStore.memberships.get(a.tenantId, a.appId, user), undefined);
    assert.ok(await userStore.memberships.get(a.tenantId, 'second-app-of-a', user));
    assert.ok(await userStore.memberships.get(b.tenantId, b.appId, user));
    assert.deepEqual(
      await userStore.users.get(user),
      { userId: user, createdAt: 1 },
      'the user keeps its id',
    );

    assert.equal(
      (
        await removeUser(a, user, {
          credentialsId: a.credentialsId,
          userIdentifierType: 'user_id',
          scope: 'tenant',
        })
      ).status,
      200,
    );
    assert.deepEqual(await userStore.memberships.listForUser(a.tenantId, user), []);
    assert.ok(await userStore.memberships.get(b.tenantId, b.appId, user));
  });

  it("a tenant's token is refused (403) on every management endpoint with another tenant's app, credentials or user", async () => {
    const auth = { authorization: `Bearer ${a.token}`, 'content-type': 'application/json' };
    const logs = (appId: string, credentialsId: string) =>
      fetch(`${platform.url}/api/v1/mgmt/activity-logs`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ appId, credentialsId, timeStart: 0, timeEnd: Date.now() }),
      });
    assert.deepEqual(await codeOf(await logs(b.appId, a.credentialsId)), [403, 'forbidden']);
    assert.deepEqual(await codeOf(await logs(a.appId, b.credentialsId)), [403, 'forbidden']);
    const adminLogs = await fetch(
      `${platform.url}/api/vbeta/mgmt/admin-logs?fromTime=${Date.now() - 86_400_000}&toTime=${Date.now()}&credentialsId=${b.credentialsId}`,
      { headers: auth },
    );
    assert.deepEqual(await codeOf(adminLogs), [403, 'forbidden']);
    assert.deepEqual(
      await codeOf(
        await removeUser(a, 'u', {
          credentialsId: b.credentialsId,
          userIdentifierType: 'user_id',
          scope: 'tenant',
        }),
      ),
      [403, 'forbidden'],
    );
    assert.deepEqual(
      await codeOf(
        await removeUser(a, 'u', {
          credentialsId: a.credentialsId,
          userIdentifierType: 'user_id',
          scope: 'app',
          appId: b.appId,
        }),
      ),
      [403, 'forbidden'],
    );
    const bUser = `b-only-${Date.now()}`;
    await userStore.memberships.save({
      tenantId: b.tenantId,
      appId: b.appId,
      userId: bUser,
      acrValues: [],
      confirmed: false,
      firstLoginAt: 1,
      lastLoginAt: 1,
    });
    assert.deepEqual(
      await codeOf(
        await removeUser(a, bUser, {
          credentialsId: a.credentialsId,
          userIdentifierType: 'user_id',
          scope: 'tenant',
        }),
      ),
      [403, 'user_not_found'],
    );
    assert.ok(await userStore.memberships.get(b.tenantId, b.appId, bUser));
  });

  it("the CLI's admin changes reach the tenant's admin logs, one event each, with the spec fields", async () => {
    const query = new URLSearchParams({
      fromTime: String(Date.now() - 3_600_000),
      toTime: String(Date.now() + 60_000),
      credentialsId: b.credentialsId,
    });
    type Logs = {
      data: {
        events: Array<{
          activityType: string;
          adminEmail: string;
          sessionId: string;
          tenantId: string;
          timestamp: number;
          data: Record<string, unknown>;
        }>;
      };
    };
    const read = async () =>
      (await (
        await fetch(`${platform.url}/api/vbeta/mgmt/admin-logs?${query}`, {
          headers: { authorization: `Bearer ${b.token}` },
        })
      ).json()) as Logs;
    const logs = await eventually(read, (l) => (l.data?.events?.length ?? 0) >= 3, 30_000, 250);
    const types = logs.data.events.map((e) => e.activityType).sort();
    assert.deepEqual(types, [
      'administrator_create_api_credential',
      'administrator_create_application',
      'administrator_create_tenant',
    ]);
    for (const event of logs.data.events) {
      assert.equal(event.tenantId, b.tenantId);
      // The CLI ran with the bootstrap key: its events say so, never a person's name (no header can claim one).
      assert.equal(event.adminEmail, 'bootstrap-key');
      assert.match(event.sessionId, /^[0-9a-f-]{36}$/);
      assert.equal(typeof event.timestamp, 'number');
    }
    const created = logs.data.events.find((e) => e.activityType === 'administrator_create_application');
    assert.deepEqual(created?.data, { appId: b.appId, appName: 'e2e tenant b' });
  });

  it('revoking credentials with the CLI stops their tokens on the management API', async () => {
    await sesame(
      platform,
      'credentials',
      'revoke',
      '--tenant',
      a.tenantId,
      '--credentials',
      a.credentialsId,
      '--yes',
    );
    const res = await removeUser(a, 'u', {
      credentialsId: a.credentialsId,
      userIdentifierType: 'user_id',
      scope: 'tenant',
    });
    assert.deepEqual(await codeOf(res), [401, 'invalid_token']);
  });
});
