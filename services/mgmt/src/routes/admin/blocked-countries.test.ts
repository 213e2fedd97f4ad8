import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { type MgmtHarness, startMgmt } from '../../testing/mgmt-harness';

describe('admin API: the location rule (blocked countries)', () => {
  let h: MgmtHarness;
  let tenantId: string;
  const rule = () => `/api/v1/admin/tenants/${tenantId}/risk-rules/blocked-countries`;
  beforeAll(async () => {
    h = await startMgmt();
    tenantId = await h.createTenant('Geo');
  });
  afterAll(() => h.stop());

  it('creates, updates (diff) and removes the rule, one admin event each, none for a change that changes nothing', async () => {
    assert.deepEqual(await (await h.admin('GET', rule())).json(), { tenantId, blockedCountries: [] });
    const start = h.adminEvents.length;

    const created = await h.admin('PUT', rule(), { countries: ['ru', 'KP', 'RU'] });
    assert.equal(created.status, 200);
    assert.deepEqual(await created.json(), { tenantId, blockedCountries: ['KP', 'RU'] });
    assert.deepEqual(
      h.adminEvents.slice(start).map((e) => [e.activityType, e.tenantId, e.data]),
      [['administrator_create_risk_rule', tenantId, { ruleType: 'blocked_countries' }]],
    );

    await h.admin('PUT', rule(), { countries: ['RU', 'KP'] });
    assert.equal(h.adminEvents.length, start + 1, 'the same list publishes nothing');

    await h.admin('PUT', rule(), { countries: ['RU'] });
    const update = h.adminEvents.at(-1)!;
    assert.equal(update.activityType, 'administrator_update_risk_rule');
    assert.deepEqual(JSON.parse(update.data?.diff), { blockedCountries: { from: ['KP', 'RU'], to: ['RU'] } });

    const removed = await h.admin('DELETE', rule());
    assert.deepEqual(await removed.json(), { tenantId, blockedCountries: [] });
    assert.deepEqual(
      [h.adminEvents.at(-1)?.activityType, h.adminEvents.at(-1)?.data],
      ['administrator_remove_risk_rule', { ruleType: 'blocked_countries' }],
    );
    await h.admin('DELETE', rule());
    assert.equal(h.adminEvents.length, start + 3, 'removing no rule publishes nothing');
  });

  it('Directory.GetClient carries the tenant rule to auth', async () => {
    const app = await h.createApp<{ clientId: string }>(tenantId, {
      name: 'Shop',
      redirectUris: ['https://shop.example/cb'],
    });
    await h.admin('PUT', rule(), { countries: ['FR'] });
    const { client } = await h.directoryClient.getClient({ clientId: app.clientId });
    assert.deepEqual(client?.blockedCountries, ['FR']);
    await h.admin('DELETE', rule());
    const after = await h.directoryClient.getClient({ clientId: app.clientId });
    assert.deepEqual(after.client?.blockedCountries, []);
  });

  it('refuses codes that are not assigned ISO 3166-1 alpha-2 codes, an empty list and other fields: 400, nothing stored', async () => {
    for (const body of [
      { countries: ['XX'] },
      { countries: ['USA'] },
      { countries: [] },
      { countries: ['FR'], extra: 1 },
      {},
    ]) {
      const res = await h.admin('PUT', rule(), body);
      assert.equal(res.status, 400, JSON.stringify(body));
      const json = (await res.json()) as { status: string };
      assert.equal(json.status, 'error');
    }
    assert.deepEqual(await (await h.admin('GET', rule())).json(), { tenantId, blockedCountries: [] });
  });

  it('answers 404 for an unknown tenant', async () => {
    const res = await h.admin('PUT', '/api/v1/admin/tenants/nope/risk-rules/blocked-countries', {
      countries: ['FR'],
    });
    assert.equal(res.status, 404);
  });
});
