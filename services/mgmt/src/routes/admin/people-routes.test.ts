import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { type MgmtHarness, startMgmt } from '../../testing/mgmt-harness';
import { supportData } from '../../testing/support-data';
import { MemorySupport } from '../../testing/support-memory';

type Json = Record<string, unknown>;

describe('admin API: people (issue 38): list, add a person, remove a passkey or a phone number', () => {
  let h: MgmtHarness;
  let tenantId: string;
  let other: string;
  let support: string;
  let admin: string;
  const port = new MemorySupport();
  const call = async (token: string, method: string, path: string, body?: unknown) => {
    const res = await h.asToken(token, method, `/api/v1/admin/tenants/${tenantId}${path}`, body);
    return { status: res.status, body: (await res.json()) as Json };
  };
  beforeAll(async () => {
    h = await startMgmt({}, { support: port });
    tenantId = await h.createTenant('Acme');
    other = await h.createTenant('Other');
    supportData(port, tenantId, other);
    const alice = port.people.find((p) => p.userId === 'user-alice')!;
    alice.createdAt = 10;
    alice.phoneMasked = '•••• •• 42';
    alice.passkeys = [
      {
        credentialId: 'lost-phone',
        createdAt: 1,
        deviceId: 'device-1',
        deviceName: 'iPhone',
        suspected: false,
      },
    ];
    port.addPerson({
      tenantId,
      userId: 'user-new',
      email: 'new@example.com',
      createdAt: 20,
      devices: [],
      memberships: [],
    });
    support = await h.adminToken(tenantId, 'support@acme.test', 'support');
    admin = await h.adminToken(tenantId, 'admin@acme.test', 'administrator');
  });
  afterAll(() => h.stop());

  it('GET …/people lists this tenant’s people newest first, a keyset page with a cursor to the next', async () => {
    const first = await call(support, 'GET', '/people?limit=1');
    assert.equal(first.status, 200);
    assert.deepEqual(first.body, {
      people: [{ userId: 'user-new', email: 'new@example.com', createdAt: 20, disabled: false, passkeys: 0 }],
      nextCursor: 'user-new',
    });
    const next = await call(support, 'GET', `/people?limit=1&cursor=${first.body.nextCursor}`);
    assert.deepEqual(
      (next.body.people as Json[]).map((p) => [p.userId, p.passkeys]),
      [['user-alice', 1]],
    );
    assert.equal((await call(support, 'GET', '/people?limit=0')).status, 400);
    assert.equal((await call(support, 'GET', '/people?cursor=%24ne')).status, 400);
  });

  it('DELETE …/passkeys/:id: Support may; the event names the person, the passkey and the real actor', async () => {
    const missing = await call(support, 'DELETE', '/users/user-alice/passkeys/not-hers');
    assert.equal(missing.status, 404);
    assert.equal((missing.body.error as Json).code, 'passkey_not_found');
    const done = await call(support, 'DELETE', '/users/user-alice/passkeys/lost-phone');
    assert.equal(done.status, 200);
    assert.deepEqual(done.body, { status: 'success', userId: 'user-alice', credentialId: 'lost-phone' });
    const event = h.adminEvents.at(-1)!;
    assert.equal(event.activityType, 'administrator_remove_user_passkey');
    assert.equal(event.adminEmail, 'support@acme.test');
    assert.deepEqual(event.data, { userId: 'user-alice', credentialId: 'lost-phone' });
    assert.deepEqual(port.people.find((p) => p.userId === 'user-alice')!.passkeys, []);
  });

  it('DELETE …/phone-number: managers only (Support 403, nothing removed); none left is 409', async () => {
    const refused = await call(support, 'DELETE', '/users/user-alice/phone-number');
    assert.equal(refused.status, 403);
    assert.equal(port.people.find((p) => p.userId === 'user-alice')!.phoneMasked, '•••• •• 42');
    const done = await call(admin, 'DELETE', '/users/user-alice/phone-number');
    assert.equal(done.status, 200);
    const event = h.adminEvents.at(-1)!;
    assert.equal(event.activityType, 'administrator_remove_user_phone_number');
    assert.equal(event.adminEmail, 'admin@acme.test');
    assert.deepEqual(event.data, { userId: 'user-alice' });
    assert.equal((await call(admin, 'DELETE', '/users/user-alice/phone-number')).status, 409);
    assert.equal((await call(admin, 'DELETE', '/users/user-other/phone-number')).status, 404);
  });

  it('POST …/people sends the registration link for an address and an app; Support may not', async () => {
    const app = await h.createApp<{ appId: string; clientId: string }>(tenantId, {
      name: 'Shop',
      redirectUris: ['https://shop.example/callback'],
      registrationRedirectUri: 'https://shop.example/registered',
    });
    const body = { email: ' Kim@Example.com ', app: app.clientId };
    assert.equal((await call(support, 'POST', '/people', body)).status, 403);
    const calls = h.peers.activationCalls.length;
    const added = await call(admin, 'POST', '/people', body);
    assert.equal(added.status, 201);
    assert.equal(added.body.email, 'kim@example.com');
    assert.equal(added.body.appId, app.appId);
    assert.equal(h.peers.activationCalls.length, calls + 1);
    const sent = h.peers.activationCalls.at(-1)!;
    assert.equal(sent.userEmail, 'kim@example.com');
    assert.equal(sent.registrationRedirectUri, 'https://shop.example/registered');
    const event = h.adminEvents.at(-1)!;
    assert.equal(event.activityType, 'administrator_add_person');
    assert.equal(event.adminEmail, 'admin@acme.test');
    assert.equal(event.data?.email, 'kim@example.com');
    const bad = await call(admin, 'POST', '/people', { email: 'not an address', app: app.appId });
    assert.equal(bad.status, 400);
    assert.equal((await call(admin, 'POST', '/people', { email: 'a@example.com', app: 'nope' })).status, 404);
  });
});
