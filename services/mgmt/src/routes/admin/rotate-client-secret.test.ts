import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { GrpcStatus, isGrpcStatus, sha256 } from '@sesame/platform';
import { type MgmtHarness, startMgmt } from '../../testing/mgmt-harness';

type App = { appId: string; clientId: string; clientSecret?: string };

describe('admin API: rotate a client secret', () => {
  let h: MgmtHarness;
  let tenantId: string;
  let base: string;
  const create = async (extra: object = {}) =>
    (await (
      await h.admin('POST', base, { name: 'Shop', redirectUris: ['https://shop.example/cb'], ...extra })
    ).json()) as App;
  beforeAll(async () => {
    h = await startMgmt();
    tenantId = await h.createTenant('T');
    base = `/api/v1/admin/tenants/${tenantId}/applications`;
  });
  afterAll(() => h.stop());

  it('gives a new secret once: the old one stops authenticating, the new one works, hash and sealed copy change', async () => {
    const app = await create();
    const before = await h.dir.applications.get(tenantId, app.appId);
    const count = h.adminEvents.length;
    const res = await h.admin('POST', `${base}/${app.appId}/client-secret`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    const { clientSecret, ...rest } = (await res.json()) as { clientSecret: string };
    assert.deepEqual(rest, {});
    assert.notEqual(clientSecret, app.clientSecret);
    const after = await h.dir.applications.get(tenantId, app.appId);
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
    const pub = await h.admin('POST', `${base}/${spa.appId}/client-secret`);
    assert.equal(pub.status, 400);
    const otherTenant = await h.createTenant('U');
    const app = await create();
    const foreign = await h.admin(
      'POST',
      `/api/v1/admin/tenants/${otherTenant}/applications/${app.appId}/client-secret`,
    );
    assert.equal(foreign.status, 404);
    assert.equal((await h.admin('POST', `${base}/no-such-app/client-secret`)).status, 404);
  });
});
