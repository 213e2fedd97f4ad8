import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { startedForSuite } from '@sesame/testing/suite';
import { type MgmtHarness, startMgmt } from '../../testing/mgmt-harness';

type Tenant = { tenantId: string; name: string; createdAt: number; updatedAt: number };

describe('admin API: tenants', () => {
  const h = startedForSuite(startMgmt);

  it('creates a tenant (201) and publishes exactly one administrator_create_tenant keyed by the tenant', async () => {
    h.clock.t = 1000;
    const before = h.adminEvents.length;
    const res = await h.admin('POST', '/api/v1/admin/tenants', { name: '  Acme  ' });
    assert.equal(res.status, 201);
    const tenant = (await res.json()) as Tenant;
    assert.match(tenant.tenantId, /^[0-9a-f-]{36}$/);
    assert.deepEqual(tenant, { tenantId: tenant.tenantId, name: 'Acme', createdAt: 1000, updatedAt: 1000 });
    assert.equal(h.adminEvents.length, before + 1);
    const event = h.adminEvents.at(-1)!;
    assert.equal(event.activityType, 'administrator_create_tenant');
    assert.equal(event.tenantId, tenant.tenantId);
    assert.deepEqual(event.data, { tenantName: 'Acme' });
    assert.equal(h.eventKeys.at(-1), tenant.tenantId);
  });

  it('lists, gets, renames (diff event) and refuses a no-op rename without an event', async () => {
    const { tenantId } = (await (
      await h.admin('POST', '/api/v1/admin/tenants', { name: 'Old' })
    ).json()) as Tenant;
    const list = (await (await h.admin('GET', '/api/v1/admin/tenants')).json()) as { tenants: Tenant[] };
    assert.ok(list.tenants.some((t) => t.tenantId === tenantId));
    assert.equal(
      ((await (await h.admin('GET', `/api/v1/admin/tenants/${tenantId}`)).json()) as Tenant).name,
      'Old',
    );

    h.clock.t = 2000;
    const count = h.adminEvents.length;
    const renamed = await h.admin('PATCH', `/api/v1/admin/tenants/${tenantId}`, { name: 'New' });
    assert.equal(renamed.status, 200);
    assert.deepEqual(((await renamed.json()) as Tenant).name, 'New');
    assert.equal(h.adminEvents.length, count + 1);
    assert.equal(h.adminEvents.at(-1)?.activityType, 'administrator_update_general_settings');
    assert.deepEqual(JSON.parse(h.adminEvents.at(-1)?.data?.diff), { name: { from: 'Old', to: 'New' } });

    const same = await h.admin('PATCH', `/api/v1/admin/tenants/${tenantId}`, { name: 'New' });
    assert.equal(same.status, 200);
    assert.equal(h.adminEvents.length, count + 1);
  });

  it('answers its paths in any letter case, as express matches them (the admin routes sit behind a path gate)', async () => {
    const { tenantId } = (await (
      await h.admin('POST', '/api/v1/admin/tenants', { name: 'Cased' })
    ).json()) as Tenant;
    const res = await h.admin('GET', `/API/V1/Admin/tenants/${tenantId}`);
    assert.equal(res.status, 200);
    assert.equal(((await res.json()) as Tenant).name, 'Cased');
    const missing = await h.admin('GET', '/api/v1/admin/no-such-thing');
    assert.equal(missing.status, 404);
  });

  it('validates bodies field by field', async () => {
    const res = await h.admin('POST', '/api/v1/admin/tenants', { name: '', extra: 1 });
    assert.equal(res.status, 400);
    assert.deepEqual(await res.json(), {
      status: 'error',
      error: {
        code: 'invalid_request',
        message: 'invalid request body',
        fields: { name: 'must not be empty', '(body)': 'has unknown field(s)' },
      },
    });
  });

  it('answers an unknown tenant with 404 tenant_not_found everywhere', async () => {
    const id = '00000000-0000-0000-0000-000000000000';
    for (const [method, path, body] of [
      ['GET', `/api/v1/admin/tenants/${id}`],
      ['PATCH', `/api/v1/admin/tenants/${id}`, { name: 'x' }],
      ['DELETE', `/api/v1/admin/tenants/${id}`],
      ['GET', `/api/v1/admin/tenants/${id}/applications`],
      ['POST', `/api/v1/admin/tenants/${id}/applications`, { name: 'x' }],
      ['POST', `/api/v1/admin/tenants/${id}/credentials`, {}],
    ] as const) {
      const res = await h.admin(method, path, body);
      assert.equal(res.status, 404, `${method} ${path}`);
      assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'tenant_not_found');
    }
  });

  it('removes only an empty tenant: 409 while it has apps or live credentials, then one remove event', async () => {
    const { tenantId } = (await (
      await h.admin('POST', '/api/v1/admin/tenants', { name: 'Busy' })
    ).json()) as Tenant;
    const app = await h.createApp<{ appId: string }>(tenantId, { name: 'A' });
    const creds = (await (
      await h.admin('POST', `/api/v1/admin/tenants/${tenantId}/credentials`, {})
    ).json()) as {
      credentialsId: string;
    };
    const busy = await h.admin('DELETE', `/api/v1/admin/tenants/${tenantId}`);
    assert.equal(busy.status, 409);
    assert.equal(((await busy.json()) as { error: { code: string } }).error.code, 'tenant_not_empty');
    await h.admin('DELETE', `/api/v1/admin/tenants/${tenantId}/applications/${app.appId}`);
    await h.admin('DELETE', `/api/v1/admin/tenants/${tenantId}/credentials/${creds.credentialsId}`);
    const count = h.adminEvents.length;
    const removed = await h.admin('DELETE', `/api/v1/admin/tenants/${tenantId}`);
    assert.equal(removed.status, 200);
    assert.deepEqual(await removed.json(), { status: 'success' });
    assert.equal(h.adminEvents.length, count + 1);
    assert.equal(h.adminEvents.at(-1)?.activityType, 'administrator_remove_tenant');
    assert.equal((await h.admin('GET', `/api/v1/admin/tenants/${tenantId}`)).status, 404);
  });
});
