import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { ADMIN_KEY, type MgmtHarness, startMgmt } from '../../testing/mgmt-harness';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);

describe('admin API: branding', () => {
  let h: MgmtHarness;
  let tenantId: string;
  let otherTenant: string;
  const path = (t = tenantId) => `/api/v1/admin/tenants/${t}/branding`;
  const upload = (url: string, type: string, body: Buffer) =>
    fetch(`${h.url}${url}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': type },
      body,
    });
  beforeAll(async () => {
    h = await startMgmt();
    tenantId = await h.createTenant('ACME');
    otherTenant = await h.createTenant('Other');
  });
  afterAll(() => h.stop());

  it('sets, reads and resets the branding; one administrator_update_branding_authentication with a diff each', async () => {
    const start = h.adminEvents.length;
    const res = await h.admin('PUT', path(), {
      displayName: 'ACME',
      light: { accent: '#1D4ED8', background: '#FFFFFF' },
      cornerStyle: 'pill',
    });
    assert.equal(res.status, 200);
    const body = (await res.json()) as { settings: Record<string, unknown> };
    assert.deepEqual(body.settings, {
      displayName: 'ACME',
      light: { accent: '#1d4ed8', background: '#ffffff' },
      cornerStyle: 'pill',
    });
    const event = h.adminEvents.at(-1)!;
    assert.equal(event.activityType, 'administrator_update_branding_authentication');
    assert.equal(event.tenantId, tenantId);
    assert.deepEqual(JSON.parse(event.data?.diff), {
      displayName: { from: null, to: 'ACME' },
      light: { from: null, to: { accent: '#1d4ed8', background: '#ffffff' } },
      cornerStyle: { from: null, to: 'pill' },
    });
    await h.admin('PUT', path(), {
      displayName: 'ACME',
      light: { accent: '#1d4ed8', background: '#ffffff' },
      cornerStyle: 'pill',
    });
    assert.equal(h.adminEvents.length, start + 1, 'the same settings publish nothing');
    assert.deepEqual(
      ((await (await h.admin('GET', path())).json()) as { settings: object }).settings,
      body.settings,
    );
    const reset = (await (await h.admin('DELETE', path())).json()) as { settings: object };
    assert.deepEqual(reset.settings, {});
    assert.deepEqual(JSON.parse(h.adminEvents.at(-1)!.data?.diff).displayName, { from: 'ACME', to: null });
  });

  it('refuses a low-contrast pair: 400 whose message names the measured ratio; nothing stored', async () => {
    const res = await h.admin('PUT', path(), { light: { accent: '#ffff00', background: '#ffffff' } });
    assert.equal(res.status, 400);
    const json = (await res.json()) as { message?: string; error_description?: string };
    assert.match(
      JSON.stringify(json),
      /accent #ffff00 against background #ffffff has a contrast ratio of 1\.07:1/,
    );
    assert.deepEqual(((await (await h.admin('GET', path())).json()) as { settings: object }).settings, {});
  });

  it('logo: a PNG is stored by hash; HTML sent as PNG and 65 KiB are refused; an SVG script is removed', async () => {
    const ok = await upload(`${path()}/logo`, 'image/png', PNG);
    assert.equal(ok.status, 200);
    const logo = ((await ok.json()) as { settings: { logo: { contentType: string; hash: string } } }).settings
      .logo;
    assert.equal(logo.contentType, 'image/png');
    assert.deepEqual(JSON.parse(h.adminEvents.at(-1)!.data?.diff), { logo: { from: null, to: logo } });
    const html = await upload(`${path()}/logo`, 'image/png', Buffer.from('<html><script>alert(1)</script>'));
    assert.equal(html.status, 400);
    assert.match(await html.text(), /not a PNG image/);
    const big = await upload(
      `${path()}/logo`,
      'image/png',
      Buffer.concat([PNG, Buffer.alloc(65 * 1024 - PNG.length)]),
    );
    assert.equal(big.status, 400);
    assert.match(await big.text(), /66560 bytes; at most 65536/);
    const svg = await upload(
      `${path()}/logo`,
      'image/svg+xml',
      Buffer.from('<svg onload="alert(1)"><script>alert(2)</script><rect width="1" height="1"/></svg>'),
    );
    assert.equal(svg.status, 200);
    const stored = await h.dir.branding.get(tenantId);
    assert.equal(
      stored?.logo?.data.toString(),
      '<svg xmlns="http://www.w3.org/2000/svg"><rect width="1" height="1"></rect></svg>',
    );
    assert.equal((await h.admin('DELETE', `${path()}/logo`)).status, 200);
    assert.equal((await h.dir.branding.get(tenantId))?.logo, undefined);
  });

  it("an application's override is its own; another tenant's app or branding is never reached", async () => {
    const app = await h.createApp<{ appId: string }>(tenantId, {
      name: 'Shop',
      redirectUris: ['https://shop.example/cb'],
    });
    const appPath = `/api/v1/admin/tenants/${tenantId}/applications/${app.appId}/branding`;
    assert.equal((await h.admin('PUT', appPath, { displayName: 'Shop' })).status, 200);
    assert.equal(h.adminEvents.at(-1)?.data?.appId, app.appId);
    assert.equal((await h.dir.branding.get(tenantId, app.appId))?.settings.displayName, 'Shop');
    const foreign = await h.admin(
      'PUT',
      `/api/v1/admin/tenants/${otherTenant}/applications/${app.appId}/branding`,
      { displayName: 'Evil' },
    );
    assert.equal(foreign.status, 404);
    assert.equal(await h.dir.branding.get(otherTenant, app.appId), undefined);
    assert.deepEqual(
      ((await (await h.admin('GET', path(otherTenant))).json()) as { settings: object }).settings,
      {},
    );
  });

  it('a support administrator may neither read nor change branding', async () => {
    const token = await h.adminToken(tenantId, 'support@acme.example', 'support');
    assert.equal((await h.asToken(token, 'GET', path())).status, 403);
    assert.equal((await h.asToken(token, 'PUT', path(), { displayName: 'x' })).status, 403);
  });

  it('mail templates: default, saved (event with diff), refused with an unknown or missing placeholder, reset', async () => {
    const url = `${path()}/mail-templates/sign-in-code/en`;
    const def = (await (await h.admin('GET', url)).json()) as {
      custom: boolean;
      template: { subject: string };
    };
    assert.equal(def.custom, false);
    assert.equal(def.template.subject, 'Your code for {{app}} is {{code}}');
    const template = {
      subject: 'ACME code: {{code}}',
      preheader: '',
      heading: 'Your ACME code',
      body: 'Use {{code}} for {{app}}.',
      button: '',
    };
    const saved = await h.admin('PUT', url, template);
    assert.equal(saved.status, 200);
    const event = h.adminEvents.at(-1)!;
    assert.equal(event.activityType, 'administrator_update_branding_email_template');
    assert.equal(event.data?.mail, 'sign-in-code');
    assert.deepEqual(JSON.parse(event.data?.diff).subject, {
      from: 'Your code for {{app}} is {{code}}',
      to: 'ACME code: {{code}}',
    });
    const unknown = await h.admin('PUT', url, { ...template, body: 'Hi {{name}} {{code}}' });
    assert.equal(unknown.status, 400);
    assert.match(await unknown.text(), /unknown placeholder \{\{name\}\}/);
    const missing = await h.admin('PUT', url, { ...template, subject: 'Hello', body: 'Welcome' });
    assert.equal(missing.status, 400);
    assert.match(await missing.text(), /must show \{\{code\}\}/);
    assert.equal(
      ((await (await h.admin('GET', url)).json()) as { template: { subject: string } }).template.subject,
      'ACME code: {{code}}',
    );
    assert.equal((await h.admin('GET', `${path()}/mail-templates/nope/en`)).status, 404);
    assert.equal(
      (
        (await h
          .admin('GET', `${path(otherTenant)}/mail-templates/sign-in-code/en`)
          .then((r) => r.json())) as { custom: boolean }
      ).custom,
      false,
    );
    const reset = (await (await h.admin('DELETE', url)).json()) as { custom: boolean };
    assert.equal(reset.custom, false);
  });
});

describe('Directory.GetBranding', () => {
  let h: MgmtHarness;
  beforeAll(async () => {
    h = await startMgmt();
  });
  afterAll(() => h.stop());

  it("gives auth the tenant's branding with the app's fields over it, and the tenant's own templates only", async () => {
    const tenantId = await h.createTenant('ACME');
    const other = await h.createTenant('Other');
    const app = await h.createApp<{ appId: string }>(tenantId, {
      name: 'Shop',
      redirectUris: ['https://shop.example/cb'],
    });
    await h.admin('PUT', `/api/v1/admin/tenants/${tenantId}/branding`, {
      displayName: 'ACME',
      cornerStyle: 'square',
      mailSenderName: 'ACME Team',
    });
    await h.admin('PUT', `/api/v1/admin/tenants/${tenantId}/applications/${app.appId}/branding`, {
      displayName: 'ACME Shop',
    });
    await h.admin('PUT', `/api/v1/admin/tenants/${tenantId}/branding/mail-templates/sign-in-code/de`, {
      subject: 'Code {{code}}',
      heading: 'Ihr Code',
      body: '{{code}}',
    });
    const { branding, mailTemplates } = await h.directoryClient.getBranding({ tenantId, appId: app.appId });
    assert.equal(branding?.displayName, 'ACME Shop');
    assert.equal(branding?.cornerStyle, 'square');
    assert.equal(branding?.mailSenderName, 'ACME Team');
    assert.deepEqual(
      mailTemplates.map((t) => [t.kind, t.locale, t.subject]),
      [['sign-in-code', 'de', 'Code {{code}}']],
    );
    const foreign = await h.directoryClient.getBranding({ tenantId: other, appId: app.appId });
    assert.equal(foreign.branding?.displayName, '', "another tenant never gets this tenant's app override");
    assert.deepEqual(foreign.mailTemplates, []);
  });
});
