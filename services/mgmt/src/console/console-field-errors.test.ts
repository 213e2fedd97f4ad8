import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { type ConsoleFixture, signedIn, startConsole, stopConsole } from '../testing/console-fixture';
import { ConsoleBrowser } from '../testing/fake-provider';
import { MemorySupport } from '../testing/support-memory';

/** Handlebars writes = as &#x3D; in text: read the page as a browser does. */
const read = async (res: Response) => (await res.text()).replaceAll('&#x3D;', '=');
const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/**
 * The field `id` is marked invalid and described by its message, which names the field; `focused` says
 * whether it is the first bad field (autofocus).
 */
function assertInvalid(html: string, id: string, message: string, focused = true) {
  const input = new RegExp(`<(input|select|textarea) id="${id}"[^>]*>`).exec(html)?.[0] ?? '';
  assert.match(input, /aria-invalid="true"/, `${id} is marked invalid`);
  assert.match(input, new RegExp(`aria-describedby="${id}-error[" ]`), `${id} is described by its message`);
  assert.equal(/ autofocus/.test(input), focused, `${id} autofocus`);
  assert.match(
    html,
    new RegExp(`<p id="${id}-error" class="error field-error">${literal(message)}`),
    `${id}: ${message}`,
  );
  assert.match(html, /<p class="error" role="alert">/, 'an alert lists the problems');
}

/** Multipart, as a browser sends the Branding form. */
const postBranding = (f: ConsoleFixture, b: ConsoleBrowser, fields: Record<string, string>) => {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  return fetch(`${f.h.url}/console/branding`, {
    method: 'POST',
    body: form,
    redirect: 'manual',
    headers: { cookie: `sesame-console=${b.cookie}` },
  });
};

describe('console forms validate beside the field: a bad value keeps every typed field and names the field', () => {
  let f: ConsoleFixture;
  let owner: ConsoleBrowser;
  let csrf: string;
  beforeAll(async () => {
    f = await startConsole(
      [
        ['owner@acme.test', 'owner'],
        ['other@acme.test', 'administrator'],
      ],
      'Acme',
      { support: new MemorySupport() },
    );
    owner = await signedIn(f, 'owner@acme.test');
    csrf = ConsoleBrowser.csrfOf(await (await owner.get('/console/settings')).text());
  });
  afterAll(() => stopConsole(f));

  it('Settings, tenant name: 400, the same page, the name as typed, "Tenant name must not contain …"', async () => {
    const res = await owner.post('/console/settings/name', { csrf, name: 'Acme\r\nEvil' });
    assert.equal(res.status, 400);
    const html = await read(res);
    assert.match(html, /<h1>Settings<\/h1>/, 'the Settings page again, not an error page');
    assert.match(html, /<input id="settings-name" name="name"[^>]*value="Acme\r?\nEvil"/);
    assertInvalid(html, 'settings-name', 'Tenant name must not contain control');
    assert.equal((await f.h.dir.tenants.get(f.tenantId))?.name, 'Acme');
  });

  it('Settings, blocked countries: the list as typed, the bad code quoted beside the field, hint still described', async () => {
    const res = await owner.post('/console/settings/blocked-countries', { csrf, countries: 'DE XX' });
    assert.equal(res.status, 400);
    const html = await read(res);
    assert.match(html, /value="DE XX"/);
    assertInvalid(html, 'settings-countries', 'Blocked countries: “XX” is not an assigned');
    assert.match(html, /aria-describedby="settings-countries-error settings-countries-hint"/);
    assert.deepEqual((await f.h.dir.tenants.get(f.tenantId))?.blockedCountries ?? [], []);
  });

  it('New tenant: the name as typed and "Tenant name must not contain …"; no tenant made', async () => {
    const before = (await f.h.dir.tenants.list()).length;
    const res = await owner.post('/console/tenants', { csrf, name: 'New\u202ETenant' });
    assert.equal(res.status, 400);
    const html = await read(res);
    assert.match(html, /<input id="tenant-name" name="name"[^>]*value="New\u202ETenant"/);
    assertInvalid(html, 'tenant-name', 'Tenant name must not contain control');
    assert.equal((await f.h.dir.tenants.list()).length, before);
  });

  it('Personal API tokens: the form stays open with the name as typed and "Token name must not contain …"', async () => {
    const res = await owner.post('/console/tokens', { csrf, name: 'ci\u200Bbot' });
    assert.equal(res.status, 400);
    const html = await read(res);
    assert.match(html, /<input id="token-name" name="name"[^>]*value="ci\u200Bbot"/);
    assertInvalid(html, 'token-name', 'Token name must not contain control');
    assert.equal((await f.h.admins.tokens.list(f.tenantId, 'owner@acme.test')).length, 0);
  });

  it('Invite: a bad address keeps the address, role and language chosen and names Email address; nothing sent', async () => {
    const mails = f.h.mail.length;
    const res = await owner.post('/console/administrators/invite', {
      csrf,
      email: 'not-an-address',
      role: 'support',
      locale: 'de',
    });
    assert.equal(res.status, 400);
    const html = await read(res);
    assert.match(html, /<input id="invite-email" name="email"[^>]*value="not-an-address"/);
    assert.match(html, /<option value="support" selected>Support<\/option>/);
    assert.match(html, /<select id="invite-locale"[^>]*>.*<option value="de" selected>/s);
    assertInvalid(html, 'invite-email', 'Email address');
    assert.equal(f.h.mail.length, mails);
  });

  it('Invite: an address that already administers the tenant is named beside the field, not a 409 page', async () => {
    const res = await owner.post('/console/administrators/invite', {
      csrf,
      email: 'other@acme.test',
      role: 'owner',
    });
    assert.equal(res.status, 400);
    const html = await read(res);
    assert.match(html, /value="other@acme\.test"/);
    assert.match(html, /<option value="owner" selected>Owner<\/option>/);
    assertInvalid(
      html,
      'invite-email',
      'Email address is already an administrator of this tenant (other@acme.test)',
    );
  });

  it('Change role: a role that does not exist is named beside Role; the role unchanged', async () => {
    const res = await owner.post('/console/administrators/other%40acme.test/role', { csrf, role: 'emperor' });
    assert.equal(res.status, 400);
    const html = await read(res);
    assertInvalid(html, 'admin-role', 'Role must be one of owner, administrator, support');
    assert.equal((await f.h.admins.accounts.get(f.tenantId, 'other@acme.test'))?.role, 'administrator');
  });

  it('Branding: every typed field kept; "Background colour must be a hex colour like #1d4ed8" focused first, the link named too', async () => {
    const res = await postBranding(f, owner, {
      csrf,
      displayName: 'Kept name',
      lightAccent: '#0f766e',
      lightBackground: 'blue',
      supportUrl: 'not a link',
      mailSenderName: 'Acme Team',
      mailReplyTo: 'help@acme.test',
    });
    assert.equal(res.status, 400);
    const html = await read(res);
    for (const [id, value] of [
      ['b-name', 'Kept name'],
      ['b-la', '#0f766e'],
      ['b-lb', 'blue'],
      ['b-support', 'not a link'],
      ['b-sender', 'Acme Team'],
      ['b-reply', 'help@acme.test'],
    ])
      assert.match(html, new RegExp(`<input id="${id}" [^>]*value="${literal(value!)}"`), id);
    assertInvalid(html, 'b-lb', 'Background colour must be a hex colour like #1d4ed8', true);
    assertInvalid(html, 'b-support', 'Support link must be a URL', false);
    assert.equal(await f.h.dir.branding.get(f.tenantId), undefined);
  });

  it('Branding: an accent alone is saved, the empty background is the default one', async () => {
    const res = await postBranding(f, owner, { csrf, lightAccent: '#0f766e', lightBackground: '' });
    assert.equal(res.status, 303);
    const stored = await f.h.dir.branding.get(f.tenantId);
    assert.deepEqual(stored?.settings.light, { accent: '#0f766e', background: '#f3f4f6' });
    assert.equal(stored?.settings.dark, undefined, 'the dark scheme, all empty, stays the default');
  });

  it('Branding: each colour field has a colour picker beside it in sync with its value; the page loads one script', async () => {
    const res = await owner.get('/console/branding');
    const html = await read(res);
    assert.match(
      html,
      /<input id="b-la" name="lightAccent" type="text"[^>]*value="#0f766e"[^>]*>\n<input id="b-la-picker" type="color" data-for="b-la" value="#0f766e" aria-label="Pick the light scheme’s accent" hidden>/,
    );
    assert.match(
      html,
      /<input id="b-da-picker" type="color" data-for="b-da" value="#60a5fa"/,
      'empty: the default',
    );
    const script = /<script src="(\/console\/branding\/colours-[0-9a-f]{16}\.js)"><\/script>/.exec(html)?.[1];
    assert.ok(script, 'the colour script');
    assert.match(res.headers.get('content-security-policy') ?? '', /script-src 'self'/);
    const js = await owner.get(script!);
    assert.equal(js.status, 200);
    assert.match(js.headers.get('content-type') ?? '', /^text\/javascript/);
    assert.match(await js.text(), /picker\.addEventListener\('input'/);
  });

  it('Branding: the live preview shows the colours as typed (live=1), the saved ones without it', async () => {
    const live = await (
      await owner.get(
        '/console/branding/preview/page?scheme=light&live=1&lightAccent=%23b91c1c&lightBackground=',
      )
    ).text();
    assert.match(live, /--accent:#b91c1c/);
    assert.match(live, /--bg:#f3f4f6/);
    const saved = await (await owner.get('/console/branding/preview/page?scheme=light')).text();
    assert.match(saved, /--accent:#0f766e/);
  });

  it('Branding mail text: an unknown placeholder is named beside Body, every field as typed', async () => {
    const res = await owner.post('/console/branding/mail', {
      csrf,
      mail: 'sign-in-code',
      locale: 'en',
      subject: 'Kept subject {{code}}',
      preheader: 'Kept preview',
      heading: 'Kept heading',
      body: 'Hello {{name}}, your code is {{code}}',
      button: '',
    });
    assert.equal(res.status, 400);
    const html = await read(res);
    assert.match(html, /<input id="b-subject"[^>]*value="Kept subject \{\{code\}\}"/);
    assert.match(html, /<input id="b-pre"[^>]*value="Kept preview"/);
    assert.match(
      html,
      /<textarea id="b-body"[^>]*>Hello \{\{name\}\}, your code is \{\{code\}\}<\/textarea>/,
    );
    assertInvalid(html, 'b-body', 'Body: unknown placeholder {{name}}');
  });

  it('Users search: a search too long is the Users page with the text kept and Find a user named', async () => {
    const long = 'a'.repeat(400);
    const res = await owner.get(`/console/users?query=${long}`);
    assert.equal(res.status, 400);
    const html = await read(res);
    assert.match(html, new RegExp(`<input id="user-query" name="query" type="search" value="${long}"`));
    assertInvalid(html, 'user-query', 'Find a user');
    assert.match(html, /aria-describedby="user-query-error user-query-hint"/);
  });

  it('Activity filters: "to" before "from" keeps the filters and names the To field', async () => {
    const res = await owner.get('/console/activity?from=2026-03-10&to=2026-03-01&user=user-alice');
    assert.equal(res.status, 400);
    const html = await read(res);
    assert.match(html, /<input id="f-from" name="from" type="date" value="2026-03-10"/);
    assert.match(html, /<input id="f-to" name="to" type="date" value="2026-03-01"/);
    assert.match(html, /<input id="f-user" name="user"[^>]*value="user-alice"/);
    assertInvalid(html, 'f-to', 'To must be after from');
  });
});
