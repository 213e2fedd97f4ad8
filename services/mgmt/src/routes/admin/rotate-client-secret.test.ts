import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { GrpcStatus, isGrpcStatus, sha256 } from '@sesame/platform';
import { startedForSuite } from '@sesame/testing/suite';
import { startTenantHarness } from '../../testing/tenant-harness';

type App = { appId: string; clientId: string; clientSecret?: string };

describe('admin API: rotate a client secret', () => {
  const h = startedForSuite(() => startTenantHarness('T'));
  const base = () => `/api/v1/admin/tenants/${h.tenantId}/applications`;
  const create = async (extra: object = {}) =>
    (await (
      await h.admin('POST', base(), { name: 'Shop', redirectUris: ['https://shop.example/cb'], ...extra })
    ).json()) as App;

  it('gives a new secret once: the old one stops authenticating, the new one works, hash and sealed copy change', async () => {
    const app = await create();
    const before = await h.dir.applications.get(h.tenantId, app.appId);
    const count = h.adminEvents.length;
    const res = await h.admin('POST', `${base()}/${app.appId}/client-secret`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    const { clientSecret, ...rest } = (await res.json()) as { clientSecret: string };
    assert.deepEqual(rest, {});
    assert.notEqual(clientSecret, app.clientSecret);
    const after = await h.dir.applications.get(h.tenantId, app.appId);
    assert.equal(after?.clientSecretHash, sha256(clientSecret));
    assert.notEqual(after?.clientSecretSealed, before?.clientSecretSealed);
    await assert.rejects(
      h.directoryClient.authenticateClient({ clientId: app.clientId, clientSecret: app.clientSecret! }),
      (err: unknown) => isGrpcStatus(err, GrpcStatus.UNAUTHENTICATED),
    );
    const ok = await h.directoryClient.authenticateClient({ clientId: app.clientId, clientSecret });
    assert.equal(ok.client?.appId, app.appId);
    assert.equal(h.adminEvents.length, count + 1);
    assert.equal(h.adminEvents.at(-1)?.activityType, 'administrator_update_application');
    assert.ok(!JSON.stringify(h.adminEvents.at(-1)).includes(clientSecret));
  });

  it('400 for a public client, 404 for an app of another tenant or none', async () => {
    const spa = await create({ public: true, redirectUris: ['http://localhost:3000/cb'] });
    const pub = await h.admin('POST', `${base()}/${spa.appId}/client-secret`);
    assert.equal(pub.status, 400);
    const otherTenant = await h.createTenant('U');
    const app = await create();
    const foreign = await h.admin(
      'POST',
      `/api/v1/admin/tenants/${otherTenant}/applications/${app.appId}/client-secret`,
    );
    assert.equal(foreign.status, 404);
    assert.equal((await h.admin('POST', `${base()}/no-such-app/client-secret`)).status, 404);
  });
});
