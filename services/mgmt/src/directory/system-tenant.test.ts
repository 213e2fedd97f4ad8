import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from '@jest/globals';
import { memoryDirectory } from '.';
import { toClientMessage } from '../grpc/client-message';
import { ClientSecretVault } from '../secrets/client-secret-vault';
import { TestClock, startMgmt } from '../testing/mgmt-harness';
import { CONSOLE_CLIENT_ID, SYSTEM_TENANT_ID, ensureSystemTenant } from './system-tenant';

const uris = {
  redirectUri: 'https://admin.example/console/callback',
  postLogoutRedirectUri: 'https://admin.example/console/signed-out',
};

describe('the system tenant’s console client', () => {
  it('is registered with the signed-out page as its post_logout_redirect_uri, also when it was made before', async () => {
    const dir = memoryDirectory();
    const deps = {
      dir,
      vault: new ClientSecretVault([{ id: 'k1', key: randomBytes(32) }]),
      clock: new TestClock(),
      clientSecret: 'console-secret',
      ...uris,
    };
    await ensureSystemTenant(deps);
    const made = await dir.applications.findByClientId(CONSOLE_CLIENT_ID);
    assert.deepEqual(made?.postLogoutRedirectUris, [uris.postLogoutRedirectUri]);
    // A console client from before sign-out went through auth: the next start registers the page.
    await dir.applications.update(SYSTEM_TENANT_ID, made!.appId, {
      postLogoutRedirectUris: [],
      updatedAt: 1,
    });
    await ensureSystemTenant(deps);
    const updated = await dir.applications.findByClientId(CONSOLE_CLIENT_ID);
    assert.deepEqual(updated?.postLogoutRedirectUris, [uris.postLogoutRedirectUri]);
    assert.deepEqual(updated?.redirectUris, [uris.redirectUri]);
  });

  it('is first-party (auth asks no consent for it), also when it was made before the flag', async () => {
    const dir = memoryDirectory();
    const deps = {
      dir,
      vault: new ClientSecretVault([{ id: 'k1', key: randomBytes(32) }]),
      clock: new TestClock(),
      clientSecret: 'console-secret',
      ...uris,
    };
    await ensureSystemTenant(deps);
    const made = await dir.applications.findByClientId(CONSOLE_CLIENT_ID);
    assert.equal(made?.firstParty, true);
    assert.equal(toClientMessage(made!).firstParty, true);
    await dir.applications.update(SYSTEM_TENANT_ID, made!.appId, { firstParty: undefined, updatedAt: 1 });
    assert.equal(
      toClientMessage((await dir.applications.findByClientId(CONSOLE_CLIENT_ID))!).firstParty,
      false,
    );
    await ensureSystemTenant(deps);
    const again = await dir.applications.findByClientId(CONSOLE_CLIENT_ID);
    assert.equal(toClientMessage(again!).firstParty, true);
  });

  it('no other tenant’s application is first-party: not through the admin API, not from a stored flag', async () => {
    const h = await startMgmt();
    try {
      const tenantId = await h.createTenant('Acme');
      const refused = await h.admin('POST', `/api/v1/admin/tenants/${tenantId}/applications`, {
        name: 'Sneaky',
        redirectUris: ['https://sneaky.test/cb'],
        firstParty: true,
      });
      assert.equal(refused.status, 400);
      assert.equal(((await refused.json()) as { status: string }).status, 'error');
      assert.deepEqual(await h.dir.applications.list(tenantId), []);
      const { appId } = await h.createApp<{ appId: string }>(tenantId, {
        name: 'Shop',
        redirectUris: ['https://shop.test/cb'],
      });
      const patched = await h.admin('PATCH', `/api/v1/admin/tenants/${tenantId}/applications/${appId}`, {
        firstParty: true,
      });
      assert.equal(patched.status, 400);
      assert.equal((await h.dir.applications.get(tenantId, appId))?.firstParty, undefined);
      // Even a row that says so (a store edited by hand) is not first-party outside the system tenant.
      await h.dir.applications.update(tenantId, appId, { firstParty: true, updatedAt: 2 });
      assert.equal(toClientMessage((await h.dir.applications.get(tenantId, appId))!).firstParty, false);
    } finally {
      await h.stop();
    }
  });
});
