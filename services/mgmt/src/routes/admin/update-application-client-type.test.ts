import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { sha256 } from '@sesame/platform';
import { startedForSuite } from '@sesame/testing/suite';
import { startTenantHarness } from '../../testing/tenant-harness';

const T = '/api/v1/admin/tenants';

describe('admin API: switching an application between confidential and public', () => {
  const h = startedForSuite(() => startTenantHarness('Acme', { owner: 'owner', support: 'support' }));

  const createApp = async () => {
    const res = await h.asToken(h.owner, 'POST', `${T}/${h.tenantId}/applications`, {
      name: 'Shop',
      redirectUris: ['https://shop.test/cb'],
    });
    assert.equal(res.status, 201);
    return (await res.json()) as { appId: string; clientId: string; clientSecret: string };
  };

  it('public: true removes the secret (hash and sealed copy); the old secret stops at once; one event with the diff', async () => {
    const { appId, clientId, clientSecret } = await createApp();
    const res = await h.asToken(h.owner, 'PATCH', `${T}/${h.tenantId}/applications/${appId}`, {
      public: true,
    });
    assert.equal(res.status, 200);
    const body = (await res.json()) as Record<string, unknown>;
    assert.equal(body.public, true);
    assert.equal('clientSecret' in body, false);
    const stored = await h.dir.applications.get(h.tenantId, appId);
    assert.deepEqual(
      [stored?.clientType, stored?.clientSecretHash, stored?.clientSecretSealed],
      ['public', undefined, undefined],
    );
    await assert.rejects(h.directoryClient.authenticateClient({ clientId, clientSecret }));
    const event = h.adminEvents.at(-1)!;
    assert.equal(event.activityType, 'administrator_update_application');
    assert.equal(event.adminEmail, 'owner@acme.test');
    assert.deepEqual(event.data, {
      diff: JSON.stringify({
        public: { from: false, to: true },
        clientSecret: { from: 'hidden', to: 'removed' },
      }),
    });
    const events = h.adminEvents.length;
    const again = await h.asToken(h.owner, 'PATCH', `${T}/${h.tenantId}/applications/${appId}`, {
      public: true,
    });
    assert.equal(again.status, 200);
    assert.equal(h.adminEvents.length, events, 'no change, no event');
    const rotate = await h.asToken(h.owner, 'POST', `${T}/${h.tenantId}/applications/${appId}/client-secret`);
    assert.equal(rotate.status, 400);
  });

  it('public: false gives a public client a new secret, answered once, stored hashed and sealed; it authenticates', async () => {
    const { appId, clientId } = await createApp();
    await h.asToken(h.owner, 'PATCH', `${T}/${h.tenantId}/applications/${appId}`, { public: true });
    const res = await h.asToken(h.owner, 'PATCH', `${T}/${h.tenantId}/applications/${appId}`, {
      public: false,
      name: 'Shop 2',
    });
    assert.equal(res.status, 200);
    const body = (await res.json()) as { public: boolean; name: string; clientSecret: string };
    assert.deepEqual([body.public, body.name], [false, 'Shop 2']);
    assert.match(body.clientSecret, /^\S{32,}$/);
    const stored = await h.dir.applications.get(h.tenantId, appId);
    assert.equal(stored?.clientType, 'confidential');
    assert.equal(stored?.clientSecretHash, sha256(body.clientSecret));
    assert.ok(stored?.clientSecretSealed);
    const { client } = await h.directoryClient.authenticateClient({
      clientId,
      clientSecret: body.clientSecret,
    });
    assert.equal(client?.clientId, clientId);
    const event = h.adminEvents.at(-1)!;
    assert.deepEqual(JSON.parse(String(event.data?.diff)), {
      name: { from: 'Shop', to: 'Shop 2' },
      public: { from: true, to: false },
      clientSecret: { from: null, to: 'generated' },
    });
    assert.ok(
      !JSON.stringify(event.data).includes(body.clientSecret),
      'the secret never appears in the event',
    );
    const view = (await (
      await h.asToken(h.owner, 'GET', `${T}/${h.tenantId}/applications/${appId}`)
    ).json()) as object;
    assert.equal('clientSecret' in view, false, 'shown once: never read back');
  });

  it('a Support token cannot switch the client type (403): nothing written, no event', async () => {
    const { appId, clientId, clientSecret } = await createApp();
    const events = h.adminEvents.length;
    const res = await h.asToken(h.support, 'PATCH', `${T}/${h.tenantId}/applications/${appId}`, {
      public: true,
    });
    assert.equal(res.status, 403);
    assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'forbidden');
    assert.equal((await h.dir.applications.get(h.tenantId, appId))?.clientType, 'confidential');
    const { client } = await h.directoryClient.authenticateClient({ clientId, clientSecret });
    assert.equal(client?.clientId, clientId);
    assert.equal(h.adminEvents.length, events);
  });

  it('a public value that is not a boolean is 400 invalid_request naming the field, nothing written', async () => {
    const { appId } = await createApp();
    const res = await h.asToken(h.owner, 'PATCH', `${T}/${h.tenantId}/applications/${appId}`, {
      public: 'yes',
    });
    assert.equal(res.status, 400);
    const error = ((await res.json()) as { error: { code: string; fields?: Record<string, string> } }).error;
    assert.equal(error.code, 'invalid_request');
    assert.ok(error.fields?.public, JSON.stringify(error));
    assert.equal((await h.dir.applications.get(h.tenantId, appId))?.clientType, 'confidential');
  });
});
