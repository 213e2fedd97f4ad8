import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { ConsoleBrowser, FakeProvider } from '../testing/fake-provider';
import { type MgmtHarness, startMgmt } from '../testing/mgmt-harness';
import { readableData } from './page-admin-logs';

describe('console page: Admin logs', () => {
  let h: MgmtHarness;
  let provider: FakeProvider;
  let tenantId: string;
  beforeAll(async () => {
    provider = await new FakeProvider().start();
    h = await startMgmt({ SESAME_AUTH_URL: provider.url });
    tenantId = await h.createTenant('Acme');
    await h.admins.accounts.create({ tenantId, email: 'support@acme.test', role: 'support', createdAt: 1 });
    h.clock.t += 1000;
    await h.admin('PATCH', `/api/v1/admin/tenants/${tenantId}`, { name: 'Acme <2>' });
  });
  afterAll(async () => {
    await h.stop();
    await provider.stop();
  });

  it('shows the tenant’s admin events newest first: what changed (the diff as from → to), by whom, from where', async () => {
    const b = new ConsoleBrowser(h.url, provider);
    h.clock.t += 1000;
    await b.signIn('support@acme.test');
    const res = await b.get('/console/admin-logs?from=2025-12-31&to=2026-01-02');
    assert.equal(res.status, 200);
    const html = await res.text();
    const order = [...html.matchAll(/<h2><code>([a-z_]+)<\/code><\/h2>/g)].map((m) => m[1]);
    assert.deepEqual(order, [
      'administrator_enter_tenant',
      'administrator_update_general_settings',
      'administrator_create_tenant',
    ]);
    assert.match(html, /<strong>name<\/strong>: <del>Acme<\/del> → <ins>Acme &lt;2&gt;<\/ins>/);
    assert.match(html, /by bootstrap-key from (::ffff:)?127\.0\.0\.1/);
    assert.match(html, /by support@acme\.test/);
  });

  it('filters by type and administrator', async () => {
    const b = new ConsoleBrowser(h.url, provider);
    await b.signIn('support@acme.test');
    const html = await (
      await b.get(
        '/console/admin-logs?from=2025-12-31&to=2026-01-02&type=administrator_create_tenant&admin=bootstrap-key',
      )
    ).text();
    const order = [...html.matchAll(/<h2><code>([a-z_]+)<\/code><\/h2>/g)].map((m) => m[1]);
    assert.deepEqual(order, ['administrator_create_tenant']);
    const none = await (
      await b.get('/console/admin-logs?from=2025-12-31&to=2026-01-02&admin=nobody@acme.test')
    ).text();
    assert.match(none, /No admin events in this period/);
  });

  it('readableData: a diff becomes one change per field; other data stays as it is', () => {
    assert.deepEqual(readableData({ diff: JSON.stringify({ a: { from: null, to: [1] } }), appId: 'x' }), {
      changes: [{ field: 'a', from: 'null', to: '[1]' }],
      fields: [{ name: 'appId', value: 'x' }],
    });
    assert.deepEqual(readableData({ diff: 'not json' }), {
      changes: [],
      fields: [{ name: 'diff', value: 'not json' }],
    });
  });
});
