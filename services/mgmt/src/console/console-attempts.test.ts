import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { type ConsoleFixture, signedIn, stopConsole } from '../testing/console-fixture';
import type { ConsoleBrowser } from '../testing/fake-provider';
import { startSupportConsole } from '../testing/support-console';
import { flowOf } from '../testing/support-data';
import { MemorySupport } from '../testing/support-memory';

/** An href as the browser reads it (Handlebars escapes & and =). */
const hrefOf = (href: string) =>
  href
    .replace(/&amp;/g, '&')
    .replace(/&#x3D;/g, '=')
    .replace(/&#x40;/g, '@');
const csrfOf = (html: string) => /name="csrf" value="([^"]+)"/.exec(html)![1]!;

/**
 * Issue 38: a person who never managed to sign in exists for support. Users search by an address with no
 * account says "No account — N sign-in attempts" linking to the Activity page filtered by the address, which
 * shows the typed address in the Person column; Administrators may erase the attempts.
 */
describe('console: attempts of an address with no account', () => {
  let f: ConsoleFixture;
  let support: ConsoleBrowser;
  let admin: ConsoleBrowser;
  const port = new MemorySupport();
  const attempt = (tenantId: string, id: string, at: number, actions: string[], facts = {}) =>
    port.addFlow(flowOf(tenantId, id, at, actions, { attemptedEmail: 'ghost@example.com', ...facts }));
  beforeAll(async () => {
    const started = await startSupportConsole(port);
    f = started.f;
    const other = started.other;
    const failed = ['auth_start_oidc', 'desktop_login_page', 'email_verification_failure'];
    attempt(f.tenantId, 'ghost-failed', Date.UTC(2026, 0, 2, 9), failed, { status: 'failure' });
    attempt(f.tenantId, 'ghost-left', Date.UTC(2026, 0, 2, 10), ['auth_start_oidc', 'desktop_login_page']);
    attempt(other, 'ghost-elsewhere', Date.UTC(2026, 0, 2, 11), failed);
    support = await signedIn(f, 'support@acme.test');
    admin = await signedIn(f, 'admin@acme.test');
  });
  afterAll(() => stopConsole(f));

  it('Users search by the address: "No account — 2 sign-in attempts" linking to Activity filtered by it', async () => {
    const html = await (await support.get('/console/users?query=Ghost%40Example.com')).text();
    const link = /<p role="status"><a href="([^"]+)">([^<]+)<\/a><\/p>/.exec(html);
    assert.ok(link, html);
    assert.equal(link[2], 'No account — 2 sign-in attempts');
    assert.equal(hrefOf(link[1]!), '/console/activity?email=ghost%40example.com');
    assert.doesNotMatch(html, /Erase attempts for this address/, 'Support may not erase');
    assert.doesNotMatch(html, /Nobody in this tenant matches/);
  });

  it('an address nobody typed: no account and no attempts, no link; a search that is not an address: as before', async () => {
    const none = await (await support.get('/console/users?query=nobody%40example.com')).text();
    assert.match(none, /<p role="status">No account — 0 sign-in attempts<\/p>/);
    const word = await (await support.get('/console/users?query=zzz')).text();
    assert.match(word, /Nobody in this tenant matches “zzz”\./);
    assert.doesNotMatch(word, /No account/);
  });

  it('search by the first letters: each typed address nobody has, with "No account — N sign-in attempts"; people with an account are not among them; this tenant only', async () => {
    attempt(f.tenantId, 'ghostly-once', Date.UTC(2026, 0, 3, 9), ['auth_start_oidc'], {
      attemptedEmail: 'ghostly@example.com',
    });
    const html = await (await support.get('/console/users?query=GHO')).text();
    const rows = [...html.matchAll(/<li>([^<:]+): <a href="([^"]+)">([^<]+)<\/a><\/li>/g)].map((m) => [
      m[1],
      hrefOf(m[2]!),
      m[3],
    ]);
    assert.deepEqual(rows, [
      ['ghost@example.com', '/console/activity?email=ghost%40example.com', 'No account — 2 sign-in attempts'],
      [
        'ghostly@example.com',
        '/console/activity?email=ghostly%40example.com',
        'No account — 1 sign-in attempt',
      ],
    ]);
    assert.match(html, /<h2 id="typed-only">Addresses typed in sign-ins, without an account<\/h2>/);
    // alice has an account: her typed address is a person, not a no-account row.
    attempt(f.tenantId, 'alice-typed', Date.UTC(2026, 0, 3, 10), ['auth_start_oidc'], {
      attemptedEmail: 'alice@example.com',
    });
    const ali = await (await support.get('/console/users?query=ali')).text();
    assert.match(ali, /<a href="\/console\/users\/[^"]+">alice@example\.com<\/a>/);
    assert.doesNotMatch(ali, /No account/);
    assert.doesNotMatch(
      await (await support.get('/console/users?query=gh')).text(),
      /No account/,
      '3+ letters',
    );
  });

  it('Activity filtered by Email address lists the attempts with the typed address as the person', async () => {
    const page = await (await support.get('/console/activity?email=ghost%40example.com')).text();
    assert.match(page, /<label for="f-email">Email address<\/label>/);
    assert.match(page, /<input id="f-email" name="email" type="email" value="ghost@example.com"/);
    const rows = [...page.matchAll(/<a href="\/console\/activity\/(ghost-[a-z]+)"/g)].map((m) => m[1]);
    assert.deepEqual(rows, ['ghost-left', 'ghost-failed']);
    assert.equal([...page.matchAll(/<td>ghost@example\.com<\/td>/g)].length, 2, 'the Person column');
    const bad = await support.get('/console/activity?email=not-an-address');
    assert.equal(bad.status, 400);
    assert.match(await bad.text(), /must be an email address/);
  });

  it('Erase attempts for this address: Support is refused; an Administrator erases them, as an admin event', async () => {
    const page = await (await admin.get('/console/users?query=ghost%40example.com')).text();
    assert.match(page, /<button type="submit" class="danger"[^>]*>Erase attempts for this address<\/button>/);
    const csrf = csrfOf(page);
    const refused = await support.post('/console/attempts/erase', {
      csrf: csrfOf(await (await support.get('/console/users')).text()),
      email: 'ghost@example.com',
    });
    assert.equal(refused.status, 403);
    assert.equal(port.flows.filter((x) => x.attemptedEmail === 'ghost@example.com').length, 3);
    assert.equal(
      (await admin.post('/console/attempts/erase', { csrf: 'forged', email: 'ghost@example.com' })).status,
      403,
    );
    const res = await admin.post('/console/attempts/erase', { csrf, email: 'ghost@example.com' });
    assert.equal(res.status, 303);
    assert.deepEqual(
      port.flows.filter((x) => x.attemptedEmail === 'ghost@example.com').map((x) => x.id),
      ['ghost-elsewhere'],
      "another tenant's attempts stay",
    );
    const e = f.h.adminEvents.at(-1)!;
    assert.equal(e.activityType, 'administrator_erase_attempts');
    assert.equal(e.adminEmail, 'admin@acme.test');
    assert.deepEqual(e.data, { email: 'ghost@example.com', erased: 2 });
    const after = await (await admin.get(hrefOf(res.headers.get('location')!))).text();
    assert.match(after, /Erased 2 sign-in records of ghost@example\.com\./);
    assert.match(after, /No account — 0 sign-in attempts/);
    const bad = await admin.post('/console/attempts/erase', { csrf, email: 'nope' });
    assert.equal(bad.status, 400);
  });

  it('removing a person from the tenant erases their records and those their address was typed in', async () => {
    port.addFlow(
      flowOf(f.tenantId, 'alice-before-account', Date.UTC(2026, 0, 1, 8), ['auth_start_oidc'], {
        attemptedEmail: 'alice@example.com',
      }),
    );
    f.h.peers.memberships.push({ tenantId: f.tenantId, appId: 'app-1', userId: 'user-alice' });
    const confirm = await (await admin.get('/console/users/user-alice/remove')).text();
    const res = await admin.post('/console/users/user-alice/remove', {
      confirm: 'yes',
      csrf: csrfOf(confirm),
    });
    assert.equal(res.status, 303);
    const left = port.flows.filter((x) => x.tenantId === f.tenantId);
    assert.deepEqual(
      left.filter((x) => x.userId === 'user-alice' || x.attemptedEmail === 'alice@example.com'),
      [],
      "alice's records and attempts are gone",
    );
    assert.ok(
      left.some((x) => x.id === 'flow-ru'),
      "a record of nobody's stays",
    );
    assert.ok(
      port.flows.some((x) => x.tenantId !== f.tenantId),
      "another tenant's records stay",
    );
  });
});
