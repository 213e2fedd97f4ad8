import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { startedForSuite } from '@sesame/testing/suite';
import { startConsole, startSignedInConsole, stopConsole } from '../testing/console-fixture';
import { ConsoleBrowser, type FakeProvider } from '../testing/fake-provider';
import type { MgmtHarness } from '../testing/mgmt-harness';

const csrf = ConsoleBrowser.csrfOf;

describe('console page: API credentials', () => {
  const acme = startedForSuite(() => startSignedInConsole({ admin: 'administrator', support: 'support' }));

  it('New API credentials shows the Credentials ID and, once, the API secret, which authenticates', async () => {
    const page = await (await acme.admin.get('/console/credentials')).text();
    assert.match(page, /<button type="submit">New API credentials<\/button>/);
    const res = await acme.admin.post('/console/credentials', { csrf: csrf(page) });
    assert.equal(res.status, 201);
    const html = await res.text();
    assert.match(html, /<label for="credentials-id">Credentials ID<\/label>/);
    assert.match(html, /<label for="api-secret">API secret<\/label>/);
    const credentialsId = /id="credentials-id" type="text" readonly value="([^"]+)"/.exec(html)![1]!;
    const secret = /id="api-secret" type="text" readonly value="([^"]+)"/.exec(html)![1]!;
    assert.deepEqual(await acme.h.directoryClient.authenticateApiCredentials({ credentialsId, secret }), {
      tenantId: acme.tenantId,
      credentialsId,
    });
    const event = acme.h.adminEvents.at(-1)!;
    assert.deepEqual(
      [event.activityType, event.adminEmail, event.data],
      ['administrator_create_api_credential', 'admin@acme.test', { clientId: credentialsId }],
    );
    assert.ok(!(await (await acme.admin.get('/console/credentials')).text()).includes(secret), 'shown once');
  });

  it('Revoke per row, confirmed with Revoke credentials', async () => {
    const [live] = await acme.h.dir.credentials.list(acme.tenantId);
    const list = await (await acme.admin.get('/console/credentials')).text();
    assert.match(list, new RegExp(`aria-label="Revoke ${live!.credentialsId}"`));
    const confirm = await (await acme.admin.get(`/console/credentials/${live!.credentialsId}/revoke`)).text();
    assert.match(confirm, /<button type="submit">Revoke credentials<\/button>/);
    const res = await acme.admin.post(`/console/credentials/${live!.credentialsId}/revoke`, {
      confirm: 'yes',
      csrf: csrf(confirm),
    });
    assert.equal(res.status, 303);
    assert.ok((await acme.h.dir.credentials.get(acme.tenantId, live!.credentialsId))?.revokedAt);
    assert.equal(acme.h.adminEvents.at(-1)?.activityType, 'administrator_revoke_api_credential');
  });

  it('Support: the page and forged POSTs are 403, nothing written', async () => {
    assert.equal((await acme.support.get('/console/credentials')).status, 403);
    const tokens = await (await acme.support.get('/console/tokens')).text();
    const before = [(await acme.h.dir.credentials.list(acme.tenantId)).length, acme.h.adminEvents.length];
    assert.equal((await acme.support.post('/console/credentials', { csrf: csrf(tokens) })).status, 403);
    assert.deepEqual(
      [(await acme.h.dir.credentials.list(acme.tenantId)).length, acme.h.adminEvents.length],
      before,
    );
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
