import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { sha256 } from '@sesame/platform';
import { startedForSuite } from '@sesame/testing/suite';
import { errorOf } from '../../testing/mgmt-harness';
import { startTenantHarness } from '../../testing/tenant-harness';

describe('admin API: credentials, device blocks, key rotation', () => {
  const h = startedForSuite(() => startTenantHarness('T'));

  it('creates credentials: apiSecret shown once and stored hashed, one event with clientId = credentialsId', async () => {
    h.clock.t = 4242;
    const count = h.adminEvents.length;
    const res = await h.admin('POST', `/api/v1/admin/tenants/${h.tenantId}/credentials`, {});
    assert.equal(res.status, 201);
    const created = (await res.json()) as { credentialsId: string; apiSecret: string };
    assert.deepEqual(created, {
      credentialsId: created.credentialsId,
      tenantId: h.tenantId,
      createdAt: 4242,
      apiSecret: created.apiSecret,
    });
    assert.ok(created.apiSecret.length >= 43);
    assert.equal(
      (await h.dir.credentials.get(h.tenantId, created.credentialsId))?.secretHash,
      sha256(created.apiSecret),
    );
    const list = (await (await h.admin('GET', `/api/v1/admin/tenants/${h.tenantId}/credentials`)).json()) as {
      credentials: Array<Record<string, unknown>>;
    };
    assert.deepEqual(list.credentials, [
      { credentialsId: created.credentialsId, tenantId: h.tenantId, createdAt: 4242 },
    ]);
    assert.equal(h.adminEvents.length, count + 1);
    assert.equal(h.adminEvents.at(-1)?.activityType, 'administrator_create_api_credential');
    assert.deepEqual(h.adminEvents.at(-1)?.data, { clientId: created.credentialsId });
  });

  it('revokes once: one revoke event; again is 409 already_revoked; unknown or other-tenant is 404', async () => {
    const { credentialsId } = (await (
      await h.admin('POST', `/api/v1/admin/tenants/${h.tenantId}/credentials`)
    ).json()) as {
      credentialsId: string;
    };
    const other = await h.createTenant('O');
    const foreign = await h.admin('DELETE', `/api/v1/admin/tenants/${other}/credentials/${credentialsId}`);
    assert.equal(foreign.status, 404);
    assert.equal((await errorOf(foreign)).code, 'credentials_not_found');
    h.clock.t = 7777;
    const count = h.adminEvents.length;
    const res = await h.admin('DELETE', `/api/v1/admin/tenants/${h.tenantId}/credentials/${credentialsId}`);
    assert.equal(res.status, 200);
    assert.equal(((await res.json()) as { revokedAt: number }).revokedAt, 7777);
    assert.equal(h.adminEvents.length, count + 1);
    assert.equal(h.adminEvents.at(-1)?.activityType, 'administrator_revoke_api_credential');
    assert.deepEqual(h.adminEvents.at(-1)?.data, { clientId: credentialsId });
    const again = await h.admin('DELETE', `/api/v1/admin/tenants/${h.tenantId}/credentials/${credentialsId}`);
    assert.equal(again.status, 409);
    assert.equal((await errorOf(again)).code, 'already_revoked');
    assert.equal(h.adminEvents.length, count + 1);
  });

  it('blocks a device through Users.BlockDevice and publishes administrator_block_user_device', async () => {
    h.peers.memberships.push({ tenantId: h.tenantId, appId: 'a1', userId: 'user-1' });
    h.clock.t = 8888;
    const count = h.adminEvents.length;
    const res = await h.admin('POST', `/api/v1/admin/tenants/${h.tenantId}/users/user-1/devices/dev-9/block`);
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), {
      status: 'success',
      userId: 'user-1',
      deviceId: 'dev-9',
      allowAccess: false,
      changedAt: 8888,
    });
    assert.deepEqual(h.peers.blocked.at(-1), {
      tenantId: h.tenantId,
      userId: 'user-1',
      deviceId: 'dev-9',
      allowAccess: false,
    });
    assert.equal(h.adminEvents.length, count + 1);
    assert.equal(h.adminEvents.at(-1)?.activityType, 'administrator_block_user_device');
    assert.deepEqual(h.adminEvents.at(-1)?.data, { deviceId: 'dev-9', userId: 'user-1', allowAccess: false });
    const unblock = await h.admin(
      'POST',
      `/api/v1/admin/tenants/${h.tenantId}/users/user-1/devices/dev-9/block`,
      {
        allowAccess: true,
      },
    );
    assert.equal(((await unblock.json()) as { allowAccess: boolean }).allowAccess, true);
    assert.deepEqual(h.adminEvents.at(-1)?.data, { deviceId: 'dev-9', userId: 'user-1', allowAccess: true });
  });

  it('a block ends the refresh tokens of sign-ins made on that device; lifting it revokes nothing', async () => {
    const { tenantId } = h;
    h.peers.memberships.push({ tenantId, appId: 'a1', userId: 'user-rt' });
    const res = await h.admin('POST', `/api/v1/admin/tenants/${tenantId}/users/user-rt/devices/dev-rt/block`);
    assert.equal(res.status, 200);
    assert.deepEqual(h.peers.revokedGrants.at(-1), {
      tenantId,
      userId: 'user-rt',
      appId: '',
      deviceId: 'dev-rt',
    });
    const count = h.peers.revokedGrants.length;
    const unblock = await h.admin(
      'POST',
      `/api/v1/admin/tenants/${tenantId}/users/user-rt/devices/dev-rt/block`,
      {
        allowAccess: true,
      },
    );
    assert.equal(unblock.status, 200);
    assert.equal(h.peers.revokedGrants.length, count);
  });

  it('a device of a user the tenant does not know is 404 user_not_found, without an event', async () => {
    const count = h.adminEvents.length;
    const res = await h.admin(
      'POST',
      `/api/v1/admin/tenants/${h.tenantId}/users/stranger/devices/d/block`,
      {},
    );
    assert.equal(res.status, 404);
    assert.equal((await errorOf(res)).code, 'user_not_found');
    assert.equal(h.adminEvents.length, count);
  });

  it("rotates keys through Keys.RotateKeys and publishes administrator_rotate_keys with tenantId '*'", async () => {
    h.clock.t = 10_000;
    const count = h.adminEvents.length;
    const res = await h.admin('POST', '/api/v1/admin/keys/rotate');
    assert.equal(res.status, 200);
    const rotated = { signingKid: 'sig-1', encryptionKid: 'enc-1', activatesAt: 12_000 };
    assert.deepEqual(await res.json(), rotated);
    assert.equal(h.peers.rotations, 1);
    assert.equal(h.adminEvents.length, count + 1);
    assert.equal(h.adminEvents.at(-1)?.activityType, 'administrator_rotate_keys');
    assert.equal(h.adminEvents.at(-1)?.tenantId, '*');
    assert.deepEqual(h.adminEvents.at(-1)?.data, rotated);
  });

  it("a customer tenant's Owner may not rotate the keys every tenant shares: 403, nothing rotated, no event", async () => {
    const tenantId = await h.createTenant('Customer');
    const owner = await h.adminToken(tenantId, 'owner@customer.test', 'owner');
    const [rotations, count] = [h.peers.rotations, h.adminEvents.length];
    const res = await h.asToken(owner, 'POST', '/api/v1/admin/keys/rotate');
    assert.equal(res.status, 403);
    assert.equal((await errorOf(res)).code, 'forbidden');
    assert.equal(h.peers.rotations, rotations);
    assert.equal(h.adminEvents.length, count);
  });

  it('a peer that is down is a 503 temporarily_unavailable and publishes nothing', async () => {
    await h.peers.stop();
    const count = h.adminEvents.length;
    const res = await h.admin('POST', '/api/v1/admin/keys/rotate');
    assert.equal(res.status, 503);
    assert.equal((await errorOf(res)).code, 'temporarily_unavailable');
    assert.equal(h.adminEvents.length, count);
  });
});
