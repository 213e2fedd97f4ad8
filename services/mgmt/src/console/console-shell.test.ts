import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { startedForSuite } from '@sesame/testing/suite';
import { CONSOLE_CLIENT_ID, SYSTEM_TENANT_ID } from '../directory/system-tenant';
import { startConsole } from '../testing/console-fixture';
import { ConsoleBrowser, FakeProvider } from '../testing/fake-provider';
import { startMgmt } from '../testing/mgmt-harness';

describe('console sign-in, shell and session', () => {
  const acme = startedForSuite(() => startConsole([['owner@acme.test', 'owner']]));
  const browser = () => new ConsoleBrowser(acme.h.url, acme.provider);

  it('signs in through the system tenant’s console client with code + PKCE, then lands where it was going', async () => {
    const b = browser();
    const start = await b.get('/console/signin?return=/console/tokens');
    assert.equal(start.status, 302);
    const authorize = new URL(start.headers.get('location')!);
    assert.equal(`${authorize.origin}${authorize.pathname}`, `${acme.provider.url}/authorize`);
    assert.equal(authorize.searchParams.get('client_id'), CONSOLE_CLIENT_ID);
    assert.equal(authorize.searchParams.get('redirect_uri'), 'http://admin.sesame.test/console/callback');
    assert.equal(authorize.searchParams.get('code_challenge_method'), 'S256');
    assert.equal(authorize.searchParams.get('scope'), 'openid email');
    const app = await acme.h.dir.applications.findByClientId(CONSOLE_CLIENT_ID);
    assert.equal(app?.tenantId, SYSTEM_TENANT_ID);
    assert.deepEqual(app?.redirectUris, ['http://admin.sesame.test/console/callback']);
    assert.equal(app?.clientType, 'confidential');
    assert.equal(await b.signIn('Owner@Acme.test'), '/console/tokens');
    const event = acme.h.adminEvents.at(-1)!;
    assert.equal(event.activityType, 'administrator_enter_tenant');
    assert.equal(event.adminEmail, 'owner@acme.test');
    assert.deepEqual(event.data, { isTenantSwitch: false });
    assert.notEqual(event.sessionId, b.cookie, 'the session id in events is not the cookie secret');
  });

  it('the session cookie is HttpOnly and SameSite=Lax, and a new one at every sign-in', async () => {
    const b = browser();
    const start = await b.get('/console/signin');
    const { code, state } = acme.provider.issueCode(start.headers.get('location')!, 'owner@acme.test');
    const done = await b.get(`/console/callback?code=${code}&state=${state}`);
    const session = done.headers.getSetCookie().find((c) => c.startsWith('sesame-console='));
    assert.match(session ?? '', /^sesame-console=[\w-]+;.*HttpOnly.*SameSite=Lax/);
    b.keepCookie(done);
    const first = b.cookie;
    await b.signIn('owner@acme.test');
    assert.notEqual(b.cookie, first);
    const old = new ConsoleBrowser(acme.h.url, acme.provider);
    old.cookie = first;
    assert.equal((await old.get('/console/tokens')).status, 303, 'the old cookie no longer signs in');
  });

  it('every page has the Console navigation landmark with its links and a Sign out button, under a strict CSP (no script on this page: only pages with Copy buttons or Branding’s pickers allow the console’s own)', async () => {
    const b = browser();
    await b.signIn('owner@acme.test');
    const res = await b.get('/console/tokens');
    assert.equal(res.status, 200);
    assert.match(
      res.headers.get('content-security-policy') ?? '',
      /default-src 'none'.*frame-ancestors 'none'/,
    );
    assert.doesNotMatch(res.headers.get('content-security-policy') ?? '', /script-src/);
    assert.doesNotMatch(res.headers.get('content-security-policy') ?? '', /unsafe-inline|unsafe-eval/);
    const html = await res.text();
    assert.match(html, /<nav class="console-nav" aria-label="Console">/);
    for (const name of [
      'Home',
      'Applications',
      'API credentials',
      'Users',
      'Activity',
      'Admin logs',
      'Administrators',
      'Settings',
      'Personal API tokens',
    ]) {
      assert.match(html, new RegExp(`<a href="/console/[a-z-]+"( aria-current="page")?>${name}</a>`), name);
    }
    assert.match(html, /<button type="submit" class="secondary">Sign out<\/button>/);
    assert.doesNotMatch(html, /<script/);
    assert.ok(Buffer.byteLength(html) < 100_000);
  });

  it('speaks German and French from Accept-Language', async () => {
    const b = browser();
    await b.signIn('owner@acme.test');
    const de = await fetch(`${acme.h.url}/console/tokens`, {
      headers: { cookie: `sesame-console=${b.cookie}`, 'accept-language': 'de-CH, en;q=0.5' },
    });
    assert.match(await de.text(), /<html lang="de">[\s\S]*Abmelden/);
    const fr = await fetch(`${acme.h.url}/console/tokens`, {
      headers: { cookie: `sesame-console=${b.cookie}`, 'accept-language': 'fr' },
    });
    assert.match(await fr.text(), /Se déconnecter/);
  });

  it('without a session a page sends the browser to sign in, coming back to it', async () => {
    const res = await browser().get('/console/administrators');
    assert.equal(res.status, 303);
    assert.equal(res.headers.get('location'), '/console/signin?return=%2Fconsole%2Fadministrators');
  });

  it('someone who administers no tenant gets a 403 console page, and their session ends', async () => {
    const b = browser();
    await b.signIn('stranger@example.com');
    const res = await b.get('/console/tokens');
    assert.equal(res.status, 403);
    assert.match(res.headers.get('content-type') ?? '', /text\/html/);
    assert.match(await res.text(), /stranger@example\.com, who administers no tenant here/);
  });

  it('a callback with an unknown state, or a code the provider refuses, is a 400 console page; nothing is signed in', async () => {
    const b = browser();
    const unknown = await b.get('/console/callback?code=x&state=forged');
    assert.equal(unknown.status, 400);
    assert.match(await unknown.text(), /This sign-in was not started in this browser, or it has expired/);
    const start = await b.get('/console/signin');
    const state = new URL(start.headers.get('location')!).searchParams.get('state')!;
    const refused = await b.get(`/console/callback?code=never-issued&state=${state}`);
    assert.equal(refused.status, 400);
    assert.match(await refused.text(), /Sign-in did not complete/);
    assert.ok(!refused.headers.getSetCookie().some((c) => c.startsWith('sesame-console=')));
  });

  it('a return address outside the console is not followed', async () => {
    const b = browser();
    assert.equal(await b.signIn('owner@acme.test', 'https://evil.example/'), '/console/');
    assert.equal(await b.signIn('owner@acme.test', '//evil.example/console/'), '/console/');
  });

  it('/console/ opens the role’s first page: Home, for Support the Users page', async () => {
    await acme.addAdministrator('support@acme.test', 'support', 2);
    const owner = browser();
    await owner.signIn('owner@acme.test');
    assert.equal((await owner.get('/console/')).headers.get('location'), '/console/home');
    const support = browser();
    await support.signIn('support@acme.test');
    assert.equal((await support.get('/console/')).headers.get('location'), '/console/users');
  });

  it('4xx inside the console are console pages with a way back, never JSON', async () => {
    const b = browser();
    await b.signIn('owner@acme.test');
    const res = await b.get('/console/no-such-page');
    assert.equal(res.status, 404);
    const html = await res.text();
    assert.match(html, /There is no such page/);
    assert.match(html, /<a href="\/console\/">Back to the console<\/a>/);
  });

  it('sign out: CSRF checked, the session ends, administrator_leave_tenant, then auth’s /logout with the sign-in’s ID token as id_token_hint', async () => {
    const b = browser();
    await b.signIn('owner@acme.test');
    const idToken = acme.provider.idTokens.at(-1)!;
    const page = await (await b.get('/console/tokens')).text();
    assert.doesNotMatch(page, new RegExp(idToken.split('.')[1]!), 'the ID token is not on the page');
    const forged = await b.post('/console/signout', { csrf: 'forged' });
    assert.equal(forged.status, 403);
    assert.equal((await b.get('/console/tokens')).status, 200, 'still signed in');
    const res = await b.post('/console/signout', { csrf: ConsoleBrowser.csrfOf(page) });
    assert.equal(res.status, 303);
    assert.ok(
      res.headers.getSetCookie().some((c) => /^sesame-console=;/.test(c)),
      'the console cookie is cleared',
    );
    const logout = new URL(res.headers.get('location')!);
    assert.equal(`${logout.origin}${logout.pathname}`, `${acme.provider.url}/logout`);
    assert.deepEqual(Object.fromEntries(logout.searchParams), {
      id_token_hint: idToken,
      client_id: CONSOLE_CLIENT_ID,
      post_logout_redirect_uri: 'http://admin.sesame.test/console/signed-out',
    });
    const app = await acme.h.dir.applications.findByClientId(CONSOLE_CLIENT_ID);
    assert.deepEqual(app?.postLogoutRedirectUris, ['http://admin.sesame.test/console/signed-out']);
    const event = acme.h.adminEvents.at(-1)!;
    assert.equal(event.activityType, 'administrator_leave_tenant');
    assert.deepEqual(event.data, { isTenantSwitch: false });
    assert.equal((await b.get('/console/tokens')).status, 303);
    const signedOut = await b.get('/console/signed-out');
    assert.equal(signedOut.status, 200);
    assert.match(
      await signedOut.text(),
      /You are signed out[\s\S]*<a class="button" href="\/console\/signin/,
    );
  });

  it('sign out without a console session still ends the Sesame session (auth asks, as there is no hint)', async () => {
    const res = await browser().post('/console/signout', {});
    assert.equal(res.status, 303);
    const logout = new URL(res.headers.get('location')!);
    assert.equal(logout.searchParams.get('id_token_hint'), null);
    assert.equal(logout.searchParams.get('client_id'), CONSOLE_CLIENT_ID);
    assert.equal(
      logout.searchParams.get('post_logout_redirect_uri'),
      'http://admin.sesame.test/console/signed-out',
    );
  });

  it('an idle session ends after the idle timeout', async () => {
    const b = browser();
    await b.signIn('owner@acme.test');
    assert.equal((await b.get('/console/tokens')).status, 200);
    acme.h.clock.t += 31 * 60_000;
    try {
      assert.equal((await b.get('/console/tokens')).status, 303);
    } finally {
      acme.h.clock.t -= 31 * 60_000;
    }
  });

  it('a session ended by its idle timeout records administrator_leave_tenant (not a switch) once', async () => {
    const b = browser();
    await b.signIn('owner@acme.test');
    assert.equal((await b.get('/console/tokens')).status, 200);
    const before = acme.h.adminEvents.length;
    acme.h.clock.t += 31 * 60_000;
    try {
      assert.equal((await b.get('/console/tokens')).status, 303);
      assert.equal((await b.get('/console/tokens')).status, 303);
    } finally {
      acme.h.clock.t -= 31 * 60_000;
    }
    const events = acme.h.adminEvents.slice(before);
    assert.deepEqual(
      events.map((e) => [e.activityType, e.data, e.adminEmail]),
      [['administrator_leave_tenant', { isTenantSwitch: false }, 'owner@acme.test']],
    );
  });

  it('the system tenant is not administered through the admin API', async () => {
    assert.equal((await acme.h.admin('GET', `/api/v1/admin/tenants/${SYSTEM_TENANT_ID}`)).status, 404);
    const list = (await (await acme.h.admin('GET', '/api/v1/admin/tenants')).json()) as {
      tenants: { tenantId: string }[];
    };
    assert.ok(!list.tenants.some((t) => t.tenantId === SYSTEM_TENANT_ID));
  });
});

describe('console on an https admin_url', () => {
  it('names the cookie __Host-sesame-console and marks it Secure', async () => {
    const provider = await new FakeProvider().start();
    const h = await startMgmt({
      SESAME_AUTH_URL: provider.url,
      SESAME_ADMIN_URL: 'https://admin.sesame.test',
    });
    try {
      const start = await fetch(`${h.url}/console/signin`, { redirect: 'manual' });
      const signin = start.headers.getSetCookie()[0] ?? '';
      assert.match(signin, /^__Host-sesame-console-signin=[\w.-]+; /);
      assert.match(signin, /; Path=\/; .*HttpOnly; Secure; SameSite=Lax/);
      const location = start.headers.get('location')!;
      assert.equal(
        new URL(location).searchParams.get('redirect_uri'),
        'https://admin.sesame.test/console/callback',
      );
      const { code, state } = provider.issueCode(location, 'someone@example.com');
      const done = await fetch(`${h.url}/console/callback?code=${code}&state=${state}`, {
        redirect: 'manual',
        headers: { cookie: signin.split(';')[0]! },
      });
      const cookie = done.headers.getSetCookie().find((c) => c.startsWith('__Host-sesame-console=')) ?? '';
      assert.match(cookie, /^__Host-sesame-console=[\w-]+; /);
      assert.match(cookie, /; Path=\//);
      assert.match(cookie, /; Secure/);
      assert.match(cookie, /; HttpOnly/);
      assert.doesNotMatch(cookie, /Domain=/);
    } finally {
      await h.stop();
      await provider.stop();
    }
  });
});

describe('console: an expired invitation link', () => {
  it('is a clear 410 page, records expired_invitation_consumption, and creates no account', async () => {
    const provider = await new FakeProvider().start();
    const h = await startMgmt({ SESAME_AUTH_URL: provider.url });
    try {
      const tenantId = await h.createTenant('Acme');
      await h.admin('POST', `/api/v1/admin/tenants/${tenantId}/invitations`, {
        email: 'late@acme.test',
        role: 'support',
      });
      const link = /\/console\/invitations\/[\w-]+/.exec(h.mail.at(-1)!.text)![0];
      h.clock.t += 73 * 3_600_000;
      const late = new ConsoleBrowser(h.url, provider);
      await late.signIn('late@acme.test');
      const res = await late.get(link);
      assert.equal(res.status, 410);
      assert.match(
        await res.text(),
        /This invitation has expired\. Ask an Owner of the tenant for a new one\./,
      );
      assert.equal(await h.admins.accounts.get(tenantId, 'late@acme.test'), undefined);
      const event = h.adminEvents.at(-1)!;
      assert.deepEqual(
        [event.activityType, event.adminEmail],
        ['expired_invitation_consumption', 'late@acme.test'],
      );
    } finally {
      await h.stop();
      await provider.stop();
    }
  });
});
