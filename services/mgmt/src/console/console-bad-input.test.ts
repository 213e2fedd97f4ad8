import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { type ConsoleFixture, signedIn, startConsole, stopConsole } from '../testing/console-fixture';
import { ConsoleBrowser } from '../testing/fake-provider';
import { MemorySupport } from '../testing/support-memory';

const csrf = ConsoleBrowser.csrfOf;

describe('console: malformed bodies and cookies are 400 pages (or ignored), hostile names are refused', () => {
  let f: ConsoleFixture;
  let owner: ConsoleBrowser;
  beforeAll(async () => {
    f = await startConsole([['owner@acme.test', 'owner']], 'Acme', { support: new MemorySupport() });
    owner = await signedIn(f, 'owner@acme.test');
  });
  afterAll(() => stopConsole(f));

  const post = (path: string, body: string, contentType: string) =>
    fetch(`${f.h.url}${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: `sesame-console=${owner.cookie}`, 'content-type': contentType },
      body,
    });

  it('POST /console/branding as multipart/form-data without a boundary: a 400 console page, nothing saved', async () => {
    const res = await post('/console/branding', 'displayName=Evil', 'multipart/form-data');
    assert.equal(res.status, 400);
    assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(await res.text(), /Please check the form/);
    assert.equal(await f.h.dir.branding.get(f.tenantId), undefined);
  });

  it('POST /console/branding with a boundary the body never uses: a 400 page (no CSRF token read), nothing saved', async () => {
    const res = await post('/console/branding', 'garbage', 'multipart/form-data; boundary=xyz');
    assert.ok(res.status === 400 || res.status === 403, String(res.status));
    assert.equal(await f.h.dir.branding.get(f.tenantId), undefined);
  });

  it('a malformed percent-escape in the time-zone cookie is ignored: /console/activity answers 200 in UTC', async () => {
    const res = await fetch(`${f.h.url}/console/activity`, {
      redirect: 'manual',
      headers: { cookie: `sesame-console=${owner.cookie}; sesame-console-tz=%E0%A4%A` },
    });
    assert.equal(res.status, 200);
    assert.match(await res.text(), /id="tz" name="tz" type="text" value="UTC"/);
  });

  it('Settings: a tenant name with CR/LF is a 400 page naming the field; the name unchanged', async () => {
    const page = await (await owner.get('/console/settings')).text();
    for (const name of ['Acme\r\nEvil', 'Acme\u202Etxt', 'Ac\u200Bme']) {
      const res = await owner.post('/console/settings/name', { csrf: csrf(page), name });
      assert.equal(res.status, 400);
      assert.match(
        await res.text(),
        /Tenant name must not contain control, bidi-override or zero-width characters/,
      );
    }
    assert.equal((await f.h.dir.tenants.get(f.tenantId))?.name, 'Acme');
  });

  it('Applications and New tenant: a name with a bidi override is a 400 page naming the field; nothing created', async () => {
    const page = await (await owner.get('/console/applications?new')).text();
    const tenants = (await f.h.dir.tenants.list()).length;
    const app = await owner.post('/console/applications', {
      csrf: csrf(page),
      name: 'Shop\u202E',
      redirectUris: '',
    });
    assert.equal(app.status, 400);
    assert.match(
      await app.text(),
      /<p id="app-name-error" class="field-error">Name: must not contain control/,
    );
    const tenant = await owner.post('/console/tenants', { csrf: csrf(page), name: 'New\r\nTenant' });
    assert.equal(tenant.status, 400);
    assert.match(await tenant.text(), /Tenant name must not contain control/);
    assert.equal((await f.h.dir.applications.list(f.tenantId)).length, 0);
    assert.equal((await f.h.dir.tenants.list()).length, tenants);
  });

  it('Personal API tokens: a token name with a zero-width space is a 400 page naming Token name; no token', async () => {
    const page = await (await owner.get('/console/tokens?new')).text();
    const res = await owner.post('/console/tokens', { csrf: csrf(page), name: 'ci\u200B' });
    assert.equal(res.status, 400);
    assert.match(await res.text(), /Token name must not contain control/);
    assert.equal((await f.h.admins.tokens.list(f.tenantId, 'owner@acme.test')).length, 0);
  });

  it('Branding: a display name with CR/LF is a 400 page naming Display name, keeping what was typed', async () => {
    const page = await (await owner.get('/console/branding')).text();
    const res = await owner.post('/console/branding', {
      csrf: csrf(page),
      displayName: 'Acme\r\nX',
      supportUrl: 'https://help.acme.test/',
    });
    assert.equal(res.status, 400);
    const html = await res.text();
    assert.match(html, /Display name must not contain control/);
    assert.match(html, /value="https:\/\/help\.acme\.test\/"/);
    assert.equal(await f.h.dir.branding.get(f.tenantId), undefined);
  });

  it('a form body with a broken percent-encoding (%zz, a cut %E0%A4, a lone %) is a 400 page; nothing stored', async () => {
    const page = await (await owner.get('/console/settings')).text();
    for (const body of [
      `csrf=${csrf(page)}&name=%zz`,
      `csrf=${csrf(page)}&name=%E0%A4`,
      `csrf=${csrf(page)}&name=%`,
    ]) {
      const res = await post('/console/settings/name', body, 'application/x-www-form-urlencoded');
      assert.equal(res.status, 400, body);
      assert.match(await res.text(), /Please check the form/);
    }
    assert.equal((await f.h.dir.tenants.get(f.tenantId))?.name, 'Acme');
  });
});
