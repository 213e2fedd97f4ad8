import assert from 'node:assert/strict';
import { beforeAll, describe, it } from '@jest/globals';
import { startedForSuite } from '@sesame/testing/suite';
import { startConsole, startSignedInConsole } from '../testing/console-fixture';
import { ConsoleBrowser } from '../testing/fake-provider';

import { readableData } from './page-admin-logs';

describe('console page: Admin logs', () => {
  const acme = startedForSuite(() => startConsole([['support@acme.test', 'support']]));
  beforeAll(async () => {
    acme.h.clock.t += 1000;
    await acme.h.admin('PATCH', `/api/v1/admin/tenants/${acme.tenantId}`, { name: 'Acme <2>' });
  });

  it('shows the tenant’s admin events newest first: what changed (the diff as from → to), by whom, from where', async () => {
    const b = new ConsoleBrowser(acme.h.url, acme.provider);
    acme.h.clock.t += 1000;
    await b.signIn('support@acme.test');
    const res = await b.get('/console/admin-logs?from=2025-12-31&to=2026-01-02');
    assert.equal(res.status, 200);
    const html = await res.text();
    const order = [...html.matchAll(/<h2 title="([a-z_]+)">[^<]+<\/h2>/g)].map((m) => m[1]);
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
    const b = new ConsoleBrowser(acme.h.url, acme.provider);
    await b.signIn('support@acme.test');
    const html = await (
      await b.get(
        '/console/admin-logs?from=2025-12-31&to=2026-01-02&type=administrator_create_tenant&admin=bootstrap-key',
      )
    ).text();
    const order = [...html.matchAll(/<h2 title="([a-z_]+)">[^<]+<\/h2>/g)].map((m) => m[1]);
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

describe('console page: Settings', () => {
  const acme = startedForSuite(() =>
    startSignedInConsole({ admin: 'administrator' }, [['support@acme.test', 'support']]),
  );
  const last = () => {
    const e = acme.h.adminEvents.at(-1)!;
    return [e.activityType, e.adminEmail, e.data];
  };

  it('renames the tenant: administrator_update_general_settings with the diff', async () => {
    const page = await (await acme.admin.get('/console/settings')).text();
    assert.match(page, /<label for="settings-name">Tenant name<\/label>/);
    const res = await acme.admin.post('/console/settings/name', {
      csrf: ConsoleBrowser.csrfOf(page),
      name: 'Acme Inc',
    });
    assert.equal(res.status, 303);
    assert.equal((await acme.h.dir.tenants.get(acme.tenantId))?.name, 'Acme Inc');
    assert.deepEqual(last(), [
      'administrator_update_general_settings',
      'admin@acme.test',
      { diff: JSON.stringify({ name: { from: 'Acme', to: 'Acme Inc' } }) },
    ]);
  });

  it('blocked countries: create, update (diff) and remove risk-rule events; a bad code is a 400 page', async () => {
    const page = await (await acme.admin.get('/console/settings')).text();
    const post = (countries: string) =>
      acme.admin.post('/console/settings/blocked-countries', {
        csrf: ConsoleBrowser.csrfOf(page),
        countries,
      });
    assert.equal((await post('ru kp')).status, 303);
    assert.deepEqual((await acme.h.dir.tenants.get(acme.tenantId))?.blockedCountries, ['KP', 'RU']);
    assert.deepEqual(last(), [
      'administrator_create_risk_rule',
      'admin@acme.test',
      { ruleType: 'blocked_countries' },
    ]);
    assert.equal((await post('KP')).status, 303);
    assert.deepEqual(last(), [
      'administrator_update_risk_rule',
      'admin@acme.test',
      { diff: JSON.stringify({ blockedCountries: { from: ['KP', 'RU'], to: ['KP'] } }) },
    ]);
    assert.equal((await post('')).status, 303);
    assert.deepEqual(last(), [
      'administrator_remove_risk_rule',
      'admin@acme.test',
      { ruleType: 'blocked_countries' },
    ]);
    const events = acme.h.adminEvents.length;
    const bad = await post('XX');
    assert.equal(bad.status, 400);
    const html = await bad.text();
    assert.match(
      html,
      /<p id="settings-countries-error" class="error field-error">Blocked countries: “XX” is not an assigned/,
    );
    assert.match(
      html,
      /value="XX" aria-invalid="true" aria-describedby="settings-countries-error settings-countries-hint" autofocus>/,
    );
    assert.equal(acme.h.adminEvents.length, events);
  });

  it('Support: 403, nothing written', async () => {
    const support = new ConsoleBrowser(acme.h.url, acme.provider);
    await support.signIn('support@acme.test');
    assert.equal((await support.get('/console/settings')).status, 403);
    const tokens = await (await support.get('/console/tokens')).text();
    const res = await support.post('/console/settings/name', {
      csrf: ConsoleBrowser.csrfOf(tokens),
      name: 'Pwned',
    });
    assert.equal(res.status, 403);
    assert.equal((await acme.h.dir.tenants.get(acme.tenantId))?.name, 'Acme Inc');
  });
});
