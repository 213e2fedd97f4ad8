import assert from 'node:assert/strict';
import { beforeAll, describe, it } from '@jest/globals';
import { startedForSuite } from '@sesame/testing/suite';
import { errorOf, startMgmt } from '../../testing/mgmt-harness';

const T = '/api/v1/admin/tenants';

describe('the bootstrap key on an empty install, without break-glass: only a tenant with its first Owner invitation', () => {
  const h = startedForSuite(() => startMgmt({ SESAME_ADMIN_BREAK_GLASS: 'off' }));
  let tenantId: string;
  beforeAll(async () => {
    const res = await h.admin('POST', T, { name: 'First', ownerEmail: 'founder@first.test' });
    assert.equal(res.status, 201);
    tenantId = ((await res.json()) as { tenantId: string }).tenantId;
  });

  it('cannot create an application in a tenant without an Owner (403), nothing written, no event', async () => {
    const events = h.adminEvents.length;
    const res = await h.admin('POST', `${T}/${tenantId}/applications`, {
      name: 'Sneaky',
      redirectUris: ['https://rp.test/cb'],
    });
    assert.equal(res.status, 403);
    const error = await errorOf(res);
    assert.equal(error.code, 'forbidden');
    assert.match(error.message, /bootstrap key only creates a tenant/);
    assert.deepEqual(await h.dir.applications.list(tenantId), []);
    assert.equal(h.adminEvents.length, events);
  });

  it('cannot read, change or remove the tenant, create credentials, invite or rotate keys (403), nothing written', async () => {
    const events = h.adminEvents.length;
    for (const [method, path, body] of [
      ['GET', T, undefined],
      ['GET', `${T}/${tenantId}`, undefined],
      ['PATCH', `${T}/${tenantId}`, { name: 'Renamed' }],
      ['DELETE', `${T}/${tenantId}`, undefined],
      ['POST', `${T}/${tenantId}/credentials`, {}],
      ['POST', `${T}/${tenantId}/invitations`, { email: 'other@first.test', role: 'owner' }],
      ['POST', '/api/v1/admin/keys/rotate', undefined],
    ] as const) {
      const res = await h.admin(method, path, body);
      assert.equal(res.status, 403, `${method} ${path}`);
      assert.equal((await errorOf(res)).code, 'forbidden', `${method} ${path}`);
    }
    assert.equal((await h.dir.tenants.get(tenantId))?.name, 'First');
    assert.equal((await h.dir.credentials.list(tenantId)).length, 0);
    assert.equal(h.adminEvents.length, events);
  });

  it('a tenant without its first Owner invitation is refused (400 naming ownerEmail), nothing written', async () => {
    const before = (await h.dir.tenants.list()).length;
    const res = await h.admin('POST', T, { name: 'Orphan' });
    assert.equal(res.status, 400);
    const error = await errorOf(res);
    assert.equal(error.code, 'invalid_request');
    assert.match(error.fields?.ownerEmail ?? '', /ownerEmail is required/);
    assert.equal((await h.dir.tenants.list()).length, before);
  });
});

describe('the bootstrap key under break-glass: the recovery the docs describe', () => {
  const h = startedForSuite(() => startMgmt({ SESAME_ADMIN_BREAK_GLASS: 'on' }));

  it('acts as an Owner in a tenant without an Owner: creates an application (201) credited to bootstrap-key', async () => {
    const tenantId = await h.createTenant('Recovered');
    const res = await h.admin('POST', `${T}/${tenantId}/applications`, {
      name: 'App',
      redirectUris: ['https://rp.test/cb'],
    });
    assert.equal(res.status, 201);
    assert.equal((await h.dir.applications.list(tenantId)).length, 1);
    assert.deepEqual(
      [h.adminEvents.at(-1)?.activityType, h.adminEvents.at(-1)?.adminEmail],
      ['administrator_create_application', 'bootstrap-key'],
    );
  });
});
