import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { ConsoleBrowser, FakeProvider } from '../testing/fake-provider';
import { type MgmtHarness, startMgmt } from '../testing/mgmt-harness';

const csrf = ConsoleBrowser.csrfOf;
const selected = (page: string) =>
  /<select id="app-ciba-pending"[^>]*>.*?<option value="(\w+)" selected>/s.exec(page)?.[1];

describe('console application page: the CIBA pending poll answer (spec HTTP 200 or CIBA Core §11 HTTP 400)', () => {
  let h: MgmtHarness;
  let provider: FakeProvider;
  let tenantId: string;
  let appId: string;
  let admin: ConsoleBrowser;
  beforeAll(async () => {
    provider = await new FakeProvider().start();
    h = await startMgmt({ SESAME_AUTH_URL: provider.url });
    tenantId = await h.createTenant('Acme');
    ({ appId } = (await (
      await h.admin('POST', `/api/v1/admin/tenants/${tenantId}/applications`, {
        name: 'Bank',
        redirectUris: ['https://bank.test/cb'],
        allowedScopes: ['openid', 'email'],
      })
    ).json()) as { appId: string });
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

  const save = async (extra: Record<string, string>) => {
    const page = await (await admin.get(`/console/applications/${appId}`)).text();
    return admin.post(`/console/applications/${appId}`, {
      csrf: csrf(page),
      name: 'Bank',
      redirectUris: 'https://bank.test/cb',
      registrationRedirectUri: '',
      registrationLinkExpiresIn: '',
      auxLinkPrefix: '',
      allowedScopes: 'openid email',
      cibaMode: 'poll',
      cibaNotificationEndpoint: '',
      ...extra,
    });
  };
  const page = async () => (await admin.get(`/console/applications/${appId}`)).text();

  it('shows the labelled select, the spec’s HTTP 200 selected by default', async () => {
    const html = await page();
    assert.match(html, /<label for="app-ciba-pending">CIBA pending poll answer<\/label>/);
    assert.equal(selected(html), 'spec');
    assert.equal((await h.dir.applications.get(tenantId, appId))?.ciba.strictErrors, false);
  });

  it('choosing the standard answer sets strictErrors (served to token) and is shown selected; spec clears it', async () => {
    assert.equal((await save({ cibaPendingAnswer: 'standard' })).status, 303);
    assert.equal((await h.dir.applications.get(tenantId, appId))?.ciba.strictErrors, true);
    assert.equal(selected(await page()), 'standard');
    const event = h.adminEvents.at(-1)!;
    assert.equal(event.activityType, 'administrator_update_application');
    assert.deepEqual(Object.keys(JSON.parse(String(event.data?.diff))), ['ciba']);
    assert.equal((await save({ cibaPendingAnswer: 'spec' })).status, 303);
    assert.equal((await h.dir.applications.get(tenantId, appId))?.ciba.strictErrors, false);
    assert.equal(selected(await page()), 'spec');
  });

  it('a form without the field keeps the setting', async () => {
    await save({ cibaPendingAnswer: 'standard' });
    assert.equal((await save({})).status, 303);
    assert.equal((await h.dir.applications.get(tenantId, appId))?.ciba.strictErrors, true);
  });
});
