import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from '@jest/globals';
import { memoryDirectory } from '../directory';
import { ClientSecretVault } from '../secrets/client-secret-vault';
import { TestClock } from '../testing/mgmt-harness';
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
});
