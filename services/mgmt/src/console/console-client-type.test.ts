import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { sha256 } from '@sesame/platform';
import { ConsoleBrowser, FakeProvider } from '../testing/fake-provider';
import { type MgmtHarness, startMgmt } from '../testing/mgmt-harness';

const csrf = ConsoleBrowser.csrfOf;

describe('console page: switching an application between confidential and public', () => {
  let h: MgmtHarness;
  let provider: FakeProvider;
  let tenantId: string;
  let appId: string;
  let clientId: string;
  let firstSecret: string;
  let admin: ConsoleBrowser;
  beforeAll(async () => {
    provider = await new FakeProvider().start();
    h = await startMgmt({ SESAME_AUTH_URL: provider.url });
    tenantId = await h.createTenant('Acme');
    const created = (await (
      await h.admin('POST', `/api/v1/admin/tenants/${tenantId}/applications`, {
        name: 'Shop',
        redirectUris: ['https://shop.test/cb'],
      })
    ).json()) as { appId: string; clientId: string; clientSecret: string };
    ({ appId, clientId } = created);
    firstSecret = created.clientSecret;
    await h.admins.accounts.create({
      tenantId,
      email: 'admin@acme.test',
      role: 'administrator',
      createdAt: 1,
    });
    admin = new ConsoleBrowser(h.url, provider);
    await admin.signIn('admin@acme.test');
  });
  afterAll(async () => {
    await h.stop();
    await provider.stop();
  });

  it('the page offers the client type with the current one selected', async () => {
    const page = await (await admin.get(`/console/applications/${appId}`)).text();
    assert.match(page, /<label for="app-client-type">Client type<\/label>/);
    assert.match(
      page,
      /<option value="confidential" selected>Confidential \(has a client secret\)<\/option>/,
    );
    assert.match(page, /<button type="submit" class="secondary">Change client type<\/button>/);
  });

  it('making it public removes the secret at once and publishes the diff under the administrator', async () => {
    const page = await (await admin.get(`/console/applications/${appId}`)).text();
    const res = await admin.post(`/console/applications/${appId}/client-type`, {
      csrf: csrf(page),
      clientType: 'public',
    });
    assert.equal(res.status, 303);
    const stored = await h.dir.applications.get(tenantId, appId);
    assert.deepEqual([stored?.clientType, stored?.clientSecretHash], ['public', undefined]);
    await assert.rejects(h.directoryClient.authenticateClient({ clientId, clientSecret: firstSecret }));
    const event = h.adminEvents.at(-1)!;
    assert.deepEqual(
      [event.activityType, event.adminEmail, JSON.parse(String(event.data?.diff)).public],
      ['administrator_update_application', 'admin@acme.test', { from: false, to: true }],
    );
    const after = await (await admin.get(`/console/applications/${appId}`)).text();
    assert.match(after, /<option value="public" selected>/);
    assert.doesNotMatch(after, /Rotate client secret/);
  });

  it('making it confidential shows the new secret once; it authenticates', async () => {
    const page = await (await admin.get(`/console/applications/${appId}`)).text();
    const res = await admin.post(`/console/applications/${appId}/client-type`, {
      csrf: csrf(page),
      clientType: 'confidential',
    });
    assert.equal(res.status, 200);
    const secret = /id="client-secret" type="text" readonly value="([^"]+)"/.exec(await res.text())![1]!;
    assert.equal((await h.dir.applications.get(tenantId, appId))?.clientSecretHash, sha256(secret));
    const { client } = await h.directoryClient.authenticateClient({ clientId, clientSecret: secret });
    assert.equal(client?.clientId, clientId);
    const again = await (await admin.get(`/console/applications/${appId}`)).text();
    assert.doesNotMatch(again, /id="client-secret"/);
  });

  it('refuses an unknown type (400), a missing CSRF token (403) and a stale sign-in (403): nothing changes', async () => {
    const page = await (await admin.get(`/console/applications/${appId}`)).text();
    const events = h.adminEvents.length;
    const bad = await admin.post(`/console/applications/${appId}/client-type`, {
      csrf: csrf(page),
      clientType: 'secret',
    });
    assert.equal(bad.status, 400);
    const noCsrf = await admin.post(`/console/applications/${appId}/client-type`, { clientType: 'public' });
    assert.equal(noCsrf.status, 403);
    assert.match(await noCsrf.text(), /This form expired/);
    h.clock.t += 11 * 60_000;
    try {
      const stale = await admin.post(`/console/applications/${appId}/client-type`, {
        csrf: csrf(page),
        clientType: 'public',
      });
      assert.equal(stale.status, 403);
    } finally {
      h.clock.t -= 11 * 60_000;
    }
    assert.equal((await h.dir.applications.get(tenantId, appId))?.clientType, 'confidential');
    assert.equal(h.adminEvents.length, events);
  });

  it('a Support administrator gets 403 on a forged POST; nothing changes', async () => {
    await h.admins.accounts.create({ tenantId, email: 'help@acme.test', role: 'support', createdAt: 2 });
    const support = new ConsoleBrowser(h.url, provider);
    await support.signIn('help@acme.test');
    const tokens = await (await support.get('/console/tokens')).text();
    const events = h.adminEvents.length;
    const res = await support.post(`/console/applications/${appId}/client-type`, {
      csrf: csrf(tokens),
      clientType: 'public',
    });
    assert.equal(res.status, 403);
    assert.match(await res.text(), /Your role does not allow this\./);
    assert.equal((await h.dir.applications.get(tenantId, appId))?.clientType, 'confidential');
    assert.equal(h.adminEvents.length, events);
  });
});
