import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { ConsoleBrowser, FakeProvider } from '../testing/fake-provider';
import { type MgmtHarness, startMgmt } from '../testing/mgmt-harness';

const csrf = ConsoleBrowser.csrfOf;

describe('console page: API credentials', () => {
  let h: MgmtHarness;
  let provider: FakeProvider;
  let tenantId: string;
  let admin: ConsoleBrowser;
  let support: ConsoleBrowser;
  beforeAll(async () => {
    provider = await new FakeProvider().start();
    h = await startMgmt({ SESAME_AUTH_URL: provider.url });
    tenantId = await h.createTenant('Acme');
    await h.admins.accounts.create({
      tenantId,
      email: 'admin@acme.test',
      role: 'administrator',
      createdAt: 1,
    });
    await h.admins.accounts.create({ tenantId, email: 'support@acme.test', role: 'support', createdAt: 2 });
    admin = new ConsoleBrowser(h.url, provider);
    await admin.signIn('admin@acme.test');
    support = new ConsoleBrowser(h.url, provider);
    await support.signIn('support@acme.test');
  });
  afterAll(async () => {
    await h.stop();
    await provider.stop();
  });

  it('New API credentials shows the Credentials ID and, once, the API secret, which authenticates', async () => {
    const page = await (await admin.get('/console/credentials')).text();
    assert.match(page, /<button type="submit">New API credentials<\/button>/);
    const res = await admin.post('/console/credentials', { csrf: csrf(page) });
    assert.equal(res.status, 201);
    const html = await res.text();
    assert.match(html, /<label for="credentials-id">Credentials ID<\/label>/);
    assert.match(html, /<label for="api-secret">API secret<\/label>/);
    const credentialsId = /id="credentials-id" type="text" readonly value="([^"]+)"/.exec(html)![1]!;
    const secret = /id="api-secret" type="text" readonly value="([^"]+)"/.exec(html)![1]!;
    assert.deepEqual(await h.directoryClient.authenticateApiCredentials({ credentialsId, secret }), {
      tenantId,
      credentialsId,
    });
    const event = h.adminEvents.at(-1)!;
    assert.deepEqual(
      [event.activityType, event.adminEmail, event.data],
      ['administrator_create_api_credential', 'admin@acme.test', { clientId: credentialsId }],
    );
    assert.ok(!(await (await admin.get('/console/credentials')).text()).includes(secret), 'shown once');
  });

  it('Revoke per row, confirmed with Revoke credentials', async () => {
    const [live] = await h.dir.credentials.list(tenantId);
    const list = await (await admin.get('/console/credentials')).text();
    assert.match(list, new RegExp(`aria-label="Revoke ${live!.credentialsId}"`));
    const confirm = await (await admin.get(`/console/credentials/${live!.credentialsId}/revoke`)).text();
    assert.match(confirm, /<button type="submit">Revoke credentials<\/button>/);
    const res = await admin.post(`/console/credentials/${live!.credentialsId}/revoke`, {
      csrf: csrf(confirm),
    });
    assert.equal(res.status, 303);
    assert.ok((await h.dir.credentials.get(tenantId, live!.credentialsId))?.revokedAt);
    assert.equal(h.adminEvents.at(-1)?.activityType, 'administrator_revoke_api_credential');
  });

  it('Support: the page and forged POSTs are 403, nothing written', async () => {
    assert.equal((await support.get('/console/credentials')).status, 403);
    const tokens = await (await support.get('/console/tokens')).text();
    const before = [(await h.dir.credentials.list(tenantId)).length, h.adminEvents.length];
    assert.equal((await support.post('/console/credentials', { csrf: csrf(tokens) })).status, 403);
    assert.deepEqual([(await h.dir.credentials.list(tenantId)).length, h.adminEvents.length], before);
  });
});
