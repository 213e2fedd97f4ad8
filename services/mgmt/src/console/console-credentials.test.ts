import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { signedIn, startConsole, stopConsole } from '../testing/console-fixture';
import { ConsoleBrowser, type FakeProvider } from '../testing/fake-provider';
import { type MgmtHarness, startMgmt } from '../testing/mgmt-harness';

const csrf = ConsoleBrowser.csrfOf;

describe('console page: API credentials', () => {
  let h: MgmtHarness;
  let provider: FakeProvider;
  let tenantId: string;
  let admin: ConsoleBrowser;
  let support: ConsoleBrowser;
  beforeAll(async () => {
    ({ h, provider, tenantId } = await startConsole([
      ['admin@acme.test', 'administrator'],
      ['support@acme.test', 'support'],
    ]));
    admin = await signedIn({ h, provider }, 'admin@acme.test');
    support = await signedIn({ h, provider }, 'support@acme.test');
  });
  afterAll(() => stopConsole({ h, provider }));

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

describe('console: New tenant and the Tenant switcher', () => {
  let h: MgmtHarness;
  let provider: FakeProvider;
  let first: string;
  beforeAll(async () => {
    ({ h, provider, tenantId: first } = await startConsole([['owner@acme.test', 'owner']], 'First'));
  });
  afterAll(() => stopConsole({ h, provider }));

  it('an Owner creates a tenant, becomes its Owner, and switches between tenants with the Tenant combobox', async () => {
    const b = new ConsoleBrowser(h.url, provider);
    await b.signIn('owner@acme.test');
    const page = await (await b.get('/console/tenants/new')).text();
    assert.doesNotMatch(page, /id="tenant-switch"/, 'one tenant: no switcher');
    assert.match(page, /<a href="\/console\/tenants\/new">New tenant<\/a>/);
    const res = await b.post('/console/tenants', { csrf: csrf(page), name: 'Second' });
    assert.equal(res.status, 303);
    const second = (await h.dir.tenants.list()).find((t) => t.name === 'Second')!.tenantId;
    assert.equal((await h.admins.accounts.get(second, 'owner@acme.test'))?.role, 'owner');
    assert.deepEqual(
      h.adminEvents.slice(-3).map((e) => [e.activityType, e.tenantId, e.data]),
      [
        ['administrator_create_tenant', second, { tenantName: 'Second' }],
        ['administrator_leave_tenant', first, { isTenantSwitch: true }],
        ['administrator_enter_tenant', second, { isTenantSwitch: true }],
      ],
    );
    const now = await (await b.get('/console/tokens')).text();
    assert.match(now, /<label for="tenant-switch">Tenant<\/label>/);
    assert.match(now, new RegExp(`<option value="${second}" selected>Second</option>`));
    const back = await b.post('/console/tenant', { csrf: csrf(now), tenantId: first });
    assert.equal(back.status, 303);
    assert.match(
      await (await b.get('/console/tokens')).text(),
      new RegExp(`<option value="${first}" selected>First</option>`),
    );
  });

  it('switching to a tenant one has no account in is 403 and changes nothing', async () => {
    const other = await h.createTenant('Other');
    const b = new ConsoleBrowser(h.url, provider);
    await b.signIn('owner@acme.test');
    const page = await (await b.get('/console/tokens')).text();
    const events = h.adminEvents.length;
    assert.equal((await b.post('/console/tenant', { csrf: csrf(page), tenantId: other })).status, 403);
    assert.equal(h.adminEvents.length, events);
  });
});
