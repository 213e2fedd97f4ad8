import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { signedIn, startConsole, stopConsole } from '../testing/console-fixture';
import { ConsoleBrowser, type FakeProvider } from '../testing/fake-provider';
import type { MgmtHarness } from '../testing/mgmt-harness';

/** A multipart POST as a browser sends the Branding form (the logo as a file). */
async function postMultipart(
  b: ConsoleBrowser,
  url: string,
  fields: Record<string, string>,
  file?: { name: string; type: string; data: Buffer },
) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  if (file) form.append('logo', new Blob([file.data], { type: file.type }), file.name);
  return fetch(`${url}/console/branding`, {
    method: 'POST',
    body: form,
    redirect: 'manual',
    headers: { cookie: `sesame-console=${b.cookie}` },
  });
}

describe('console page: Branding', () => {
  let h: MgmtHarness;
  let provider: FakeProvider;
  let tenantId: string;
  let admin: ConsoleBrowser;
  beforeAll(async () => {
    ({ h, provider, tenantId } = await startConsole([
      ['admin@acme.test', 'administrator'],
      ['support@acme.test', 'support'],
    ]));
    admin = await signedIn({ h, provider }, 'admin@acme.test');
  });
  afterAll(() => stopConsole({ h, provider }));

  it('has the fixed accessible names, previews in light and dark, and a Branding link in the navigation', async () => {
    // Handlebars writes = in attributes as &#x3D;: read the page as a browser does.
    const page = (await (await admin.get('/console/branding')).text()).replaceAll('&#x3D;', '=');
    assert.match(page, /<a href="\/console\/branding" aria-current="page">Branding<\/a>/);
    for (const [id, name] of [
      ['b-name', 'Display name'],
      ['b-la', 'Accent colour'],
      ['b-logo', 'Logo'],
      ['b-mail', 'Mail'],
      ['b-subject', 'Subject'],
    ])
      assert.match(page, new RegExp(`<label for="${id}">${name}</label>`), name);
    assert.match(page, /<option value="sign-in-code" selected>Sign-in code<\/option>/);
    for (const button of ['Save branding', 'Reset to default', 'Save mail template'])
      assert.match(page, new RegExp(`<button type="submit"( class="secondary")?>${button}</button>`), button);
    for (const scheme of ['light', 'dark']) {
      assert.match(
        page,
        new RegExp(
          `<iframe sandbox="allow-same-origin" src="/console/branding/preview/page\\?scheme=${scheme}"`,
        ),
      );
      assert.match(
        page,
        new RegExp(
          `<iframe sandbox="allow-same-origin" src="/console/branding/preview/mail\\?mail=sign-in-code&amp;locale=en&amp;scheme=${scheme}"`,
        ),
      );
    }
  });

  it('saves the settings and an SVG logo (its script removed); a low-contrast pair is an alert naming the ratio', async () => {
    const page = await (await admin.get('/console/branding')).text();
    const csrf = ConsoleBrowser.csrfOf(page);
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script><circle r="4"/></svg>',
    );
    const saved = await postMultipart(
      admin,
      h.url,
      { csrf, displayName: 'ACME', lightAccent: '#1d4ed8', lightBackground: '#ffffff', cornerStyle: 'pill' },
      { name: 'logo.svg', type: 'image/svg+xml', data: svg },
    );
    assert.equal(saved.status, 303);
    const stored = await h.dir.branding.get(tenantId);
    assert.equal(stored?.settings.displayName, 'ACME');
    assert.equal(
      stored?.logo?.data.toString(),
      '<svg xmlns="http://www.w3.org/2000/svg"><circle r="4"></circle></svg>',
    );
    const types = h.adminEvents.slice(-2).map((e) => [e.activityType, e.adminEmail]);
    assert.deepEqual(types, [
      ['administrator_update_branding_authentication', 'admin@acme.test'],
      ['administrator_update_branding_authentication', 'admin@acme.test'],
    ]);

    const events = h.adminEvents.length;
    const refused = await postMultipart(admin, h.url, {
      csrf,
      displayName: 'Kept',
      lightAccent: '#ffff00',
      lightBackground: '#ffffff',
    });
    assert.equal(refused.status, 400);
    const html = await refused.text();
    assert.match(html, /<p class="error" role="alert">[^<]*contrast ratio of 1\.07:1/);
    assert.match(html, /value="Kept"/, 'what was typed stays');
    assert.equal(h.adminEvents.length, events);
    assert.equal((await h.dir.branding.get(tenantId))?.settings.displayName, 'ACME');

    const noCsrf = await postMultipart(admin, h.url, { displayName: 'Pwned' });
    assert.equal(noCsrf.status, 403);
  });

  it('saves a mail template (event with diff); an unknown placeholder is an alert; previews render the text', async () => {
    const page = await (await admin.get('/console/branding')).text();
    const csrf = ConsoleBrowser.csrfOf(page);
    const base = {
      csrf,
      mail: 'sign-in-code',
      locale: 'en',
      preheader: '',
      heading: 'Your ACME code',
      body: 'Use {{code}} for {{app}}.',
      button: '',
    };
    const bad = await admin.post('/console/branding/mail', { ...base, subject: 'Hi {{name}}' });
    assert.equal(bad.status, 400);
    assert.match(await bad.text(), /role="alert">[^<]*unknown placeholder \{\{name\}\}/);
    const ok = await admin.post('/console/branding/mail', { ...base, subject: 'ACME code {{code}}' });
    assert.equal(ok.status, 303);
    const e = h.adminEvents.at(-1)!;
    assert.equal(e.activityType, 'administrator_update_branding_email_template');
    assert.equal(JSON.parse(e.data?.diff).subject.to, 'ACME code {{code}}');
    const preview = await admin.get('/console/branding/preview/mail?mail=sign-in-code&locale=en&scheme=dark');
    assert.equal(preview.status, 200);
    assert.match(
      preview.headers.get('content-security-policy') ?? '',
      /default-src 'none'; style-src 'unsafe-inline'/,
    );
    const mail = await preview.text();
    assert.match(mail, /Your ACME code/);
    assert.match(mail, /@media all/, 'the dark preview applies the dark rules');
    const signIn = await (await admin.get('/console/branding/preview/page?scheme=light')).text();
    assert.match(signIn, /--accent:#1d4ed8/);
    assert.match(signIn, /Secure sign-in by Sesame/);
  });

  it('Reset to default removes settings and logo; Support gets 403 and writes nothing', async () => {
    const page = await (await admin.get('/console/branding')).text();
    assert.equal(
      (await admin.post('/console/branding/reset', { confirm: 'yes', csrf: ConsoleBrowser.csrfOf(page) }))
        .status,
      303,
    );
    assert.equal(await h.dir.branding.get(tenantId), undefined);
    const support = new ConsoleBrowser(h.url, provider);
    await support.signIn('support@acme.test');
    assert.equal((await support.get('/console/branding')).status, 403);
    const tokens = await (await support.get('/console/tokens')).text();
    assert.equal(
      (await support.post('/console/branding/reset', { confirm: 'yes', csrf: ConsoleBrowser.csrfOf(tokens) }))
        .status,
      403,
    );
  });
});
