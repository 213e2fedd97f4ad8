import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { type EventBus, createEventBus, readTopicToEnd } from '@sesame/events';
import { connectMongo } from '@sesame/mongo';
import { sha256 } from '@sesame/platform';
import { events, topics } from '@sesame/proto';
import { isolatedMongoUrl, realServers } from '@sesame/testing';
import { newApiToken } from './admins/api-tokens';
import { mongoAdmins } from './admins/mongo';
import { SYSTEM_TENANT_ID } from './directory/system-tenant';
import { type RealMgmt, startRealMgmt } from './testing/real-mgmt';

describe('admin events on real Kafka, directory on real Mongo (faked Grants, Users, Keys and ActivityLogs peers)', () => {
  const servers = realServers();
  /** The personal API token's id: the session id of every event it causes. */
  const sessionId = `int-${randomUUID()}`;
  const token = newApiToken();
  /** The same administrator's token in the tenant the test creates (a token acts in its own tenant only). */
  const tenantSessionId = `int-${randomUUID()}`;
  const tenantToken = newApiToken();
  /** Unique per run: the system tenant's accounts stay in the database between runs. */
  const opsEmail = `ops-${randomUUID()}@example.com`;
  const mongoUrl = isolatedMongoUrl(servers.mongoUrl, 'mgmt-admin-events-int');
  let mgmt: RealMgmt;
  /** mgmt publishes through this Kafka bus, and the test reads the topic with it. */
  let bus: EventBus;

  const admin = async (method: string, path: string, body?: unknown, as = token) => {
    const res = await fetch(`${mgmt.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${as}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    assert.ok(res.ok, `${method} ${path}: ${res.status} ${await res.clone().text()}`);
    return (await res.json()) as Record<string, string>;
  };

  beforeAll(async () => {
    // An Owner of the platform's system tenant (an operator: keys are theirs to rotate) with a personal API
    // token, as the console would have made them.
    const conn = await connectMongo(mongoUrl, { appName: 'mgmt-admin-events-int-seed' });
    try {
      const admins = mongoAdmins(conn);
      const home = SYSTEM_TENANT_ID;
      await admins.accounts.create({ tenantId: home, email: opsEmail, role: 'owner', createdAt: 1 });
      await admins.tokens.create({
        tokenId: sessionId,
        tenantId: home,
        email: opsEmail,
        name: 'int',
        tokenHash: sha256(token),
        createdAt: Date.now(),
        expiresAt: Date.now() + 3_600_000,
      });
    } finally {
      await conn.close();
    }
    mgmt = await startRealMgmt(
      {
        SESAME_KAFKA_BROKERS: servers.kafkaBrokers.join(','),
        SESAME_MONGO_URL: mongoUrl,
      },
      async (dataDir) => {
        bus = createEventBus({
          brokers: servers.kafkaBrokers.join(','),
          clientId: `mgmt-int-${randomUUID()}`,
          dataDir,
        });
        await bus.ensureTopics([topics.adminEvents]);
        return bus;
      },
    );
  });
  afterAll(() => mgmt?.stop());

  it('every admin change produces exactly one admin event on Kafka, keyed by tenant, with the spec fields', async () => {
    const started = Date.now();
    const { tenantId } = await admin('POST', '/api/v1/admin/tenants', { name: 'Kafka Co' });
    // The creator is the new tenant's Owner; their token of the system tenant does not act there, so a token
    // of theirs in the new tenant is stored, as the console would have made it.
    const conn = await connectMongo(mongoUrl, { appName: 'mgmt-admin-events-int-seed' });
    try {
      await mongoAdmins(conn).tokens.create({
        tokenId: tenantSessionId,
        tenantId: tenantId!,
        email: opsEmail,
        name: 'int',
        tokenHash: sha256(tenantToken),
        createdAt: Date.now(),
        expiresAt: Date.now() + 3_600_000,
      });
    } finally {
      await conn.close();
    }
    const inTenant = (method: string, path: string, body?: unknown) => admin(method, path, body, tenantToken);
    await inTenant('PATCH', `/api/v1/admin/tenants/${tenantId}`, { name: 'Kafka Co 2' });
    const app = await inTenant('POST', `/api/v1/admin/tenants/${tenantId}/applications`, {
      name: 'App',
      redirectUris: ['https://app.example/cb'],
    });
    await inTenant('PATCH', `/api/v1/admin/tenants/${tenantId}/applications/${app.appId}`, { name: 'App 2' });
    const creds = await inTenant('POST', `/api/v1/admin/tenants/${tenantId}/credentials`, {});
    await inTenant('DELETE', `/api/v1/admin/tenants/${tenantId}/credentials/${creds.credentialsId}`);
    mgmt.peers.memberships.push({ tenantId: tenantId!, appId: app.appId!, userId: 'user-1' });
    await inTenant('POST', `/api/v1/admin/tenants/${tenantId}/users/user-1/devices/dev-1/block`, {});
    await inTenant('DELETE', `/api/v1/admin/tenants/${tenantId}/applications/${app.appId}`);
    await admin('POST', '/api/v1/admin/keys/rotate');
    await inTenant('DELETE', `/api/v1/admin/tenants/${tenantId}`);

    // Everything mgmt accepted is on the broker; read the topic up to where it ends now: a duplicate would be
    // among these events, and no quiet period is needed to be sure nothing else comes.
    await bus.publisher.flush(30_000);
    const received = await readTopicToEnd(bus, topics.adminEvents, {
      filter: (e) => [sessionId, tenantSessionId].includes(events.AdminEvent.decode(e.value).sessionId),
      timeoutMs: 60_000,
    });

    const decoded = received.map((e) => ({ key: e.key, event: events.AdminEvent.decode(e.value) }));
    const mine = decoded.filter((d) => d.event.tenantId === tenantId).map((d) => d.event.activityType);
    assert.deepEqual(mine, [
      'administrator_create_tenant',
      'administrator_update_general_settings',
      'administrator_create_application',
      'administrator_update_application',
      'administrator_create_api_credential',
      'administrator_revoke_api_credential',
      'administrator_block_user_device',
      'administrator_remove_application',
      'administrator_remove_tenant',
    ]);
    assert.deepEqual(
      decoded.filter((d) => d.event.tenantId === '*').map((d) => d.event.activityType),
      ['administrator_rotate_keys'],
    );
    assert.equal(decoded.length, 10);
    const ids = new Set(decoded.map((d) => d.event.id));
    assert.equal(ids.size, 10);
    for (const { key, event } of decoded) {
      assert.equal(key, event.tenantId);
      assert.equal(event.adminEmail, opsEmail);
      const bySystemToken = ['administrator_create_tenant', 'administrator_rotate_keys'];
      assert.equal(event.sessionId, bySystemToken.includes(event.activityType) ? sessionId : tenantSessionId);
      assert.ok(['127.0.0.1', '::ffff:127.0.0.1'].includes(event.clientIp));
      assert.ok(event.timestampMs >= started && event.timestampMs <= Date.now());
      assert.ok(event.data && typeof event.data === 'object');
    }
    const byType = Object.fromEntries(decoded.map((d) => [d.event.activityType, d.event.data]));
    assert.deepEqual(byType.administrator_create_application, { appId: app.appId, appName: 'App' });
    assert.deepEqual(byType.administrator_remove_application, { appId: app.appId, appName: 'App 2' });
    assert.deepEqual(byType.administrator_create_api_credential, { clientId: creds.credentialsId });
    assert.deepEqual(byType.administrator_revoke_api_credential, { clientId: creds.credentialsId });
    assert.deepEqual(byType.administrator_block_user_device, {
      deviceId: 'dev-1',
      userId: 'user-1',
      allowAccess: false,
    });
    assert.deepEqual(JSON.parse(byType.administrator_update_application?.diff), {
      name: { from: 'App', to: 'App 2' },
    });
  });
});
