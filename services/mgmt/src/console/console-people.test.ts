// Over 300 lines on purpose: the list, the search, Add a person and the person page's actions share one console
// and one set of people in two tenants (the tests read what the earlier ones changed: a removed passkey stays gone).
import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { type ConsoleFixture, signedIn, stopConsole } from '../testing/console-fixture';
import type { ConsoleBrowser } from '../testing/fake-provider';
import { startSupportConsole } from '../testing/support-console';
import { MemorySupport } from '../testing/support-memory';

const csrfOf = (html: string) => /name="csrf" value="([^"]+)"/.exec(html)![1]!;
/** An href as the browser reads it (Handlebars escapes & and =). */
const hrefOf = (href: string) => href.replace(/&amp;/g, '&').replace(/&#x3D;/g, '=');
const T0 = Date.UTC(2026, 0, 10, 9);
const cells = (row: string) =>
  [...row.matchAll(/<td>(.*?)<\/td>/g)].map((m) => m[1]!.replace(/<[^>]+>/g, ''));

/**
 * Issue 38 in the console: the list of people when nothing is searched, search by the start of an address,
 * Add a person, and a person's created date, phone number and passkeys with Remove passkey / Remove phone
 * number (each confirmed, each only for the roles the permission table gives it).
 */
describe('console: people, Add a person, passkeys and phone number (issue 38)', () => {
  let f: ConsoleFixture;
  let support: ConsoleBrowser;
  let admin: ConsoleBrowser;
  const port = new MemorySupport();
  let other: string;
  let appId: string;
  let bareAppId: string;
  beforeAll(async () => {
    ({ f, other } = await startSupportConsole(port));
    const alice = port.people.find((p) => p.userId === 'user-alice')!;
    Object.assign(alice, {
      createdAt: T0,
      lastSignIn: T0 + 3_600_000,
      phoneMasked: '+•••••••••67',
      passkeys: [
        {
          credentialId: 'cred-yubi',
          model: 'YubiKey 5 Series',
          createdAt: T0,
          lastUsedAt: T0 + 3_600_000,
          deviceId: 'device-1',
          deviceName: 'Work laptop',
          suspected: false,
        },
        {
          credentialId: 'cred/phone',
          createdAt: T0 + 60_000,
          lastUsedAt: 0,
          deviceId: 'device-2',
          deviceName: 'lost phone',
          suspected: false,
        },
      ],
    });
    port.addPerson({
      tenantId: f.tenantId,
      userId: 'user-alicia',
      email: 'alicia@example.com',
      createdAt: T0 + 86_400_000,
      disabled: true,
      devices: [],
      memberships: [],
    });
    // 50 more people, older than Alice: the list is two pages.
    for (let i = 0; i < 50; i++) {
      port.addPerson({
        tenantId: f.tenantId,
        userId: `user-old-${String(i).padStart(2, '0')}`,
        email: `old${i}@example.com`,
        createdAt: T0 - (i + 1) * 60_000,
        devices: [],
        memberships: [],
      });
    }
    ({ appId } = await f.h.createApp<{ appId: string }>(f.tenantId, {
      name: 'Shop',
      redirectUris: ['https://shop.test/cb'],
      registrationRedirectUri: 'https://shop.test/registered',
    }));
    ({ appId: bareAppId } = await f.h.createApp<{ appId: string }>(f.tenantId, {
      name: 'Bare',
      redirectUris: ['https://bare.test/cb'],
    }));
    support = await signedIn(f, 'support@acme.test');
    admin = await signedIn(f, 'admin@acme.test');
  });
  afterAll(() => stopConsole(f));

  it('with nothing searched, Users lists the tenant’s people newest first, 50 a page, with a Next page link', async () => {
    const page = await support.get('/console/users');
    assert.equal(page.status, 200);
    const html = await page.text();
    const heads = [...html.matchAll(/<th scope="col">([^<]+)<\/th>/g)].map((m) => m[1]);
    assert.deepEqual(heads, ['Email', 'Created', 'Last sign-in', 'Status', 'Passkeys']);
    const rows = [...html.matchAll(/<tr><td><a href="([^"]+)">([^<]+)<\/a><\/td>(.*?)<\/tr>/g)];
    assert.equal(rows.length, 50);
    assert.deepEqual(
      rows.slice(0, 3).map((r) => r[2]),
      ['alicia@example.com', 'alice@example.com', 'old0@example.com'],
    );
    assert.equal(rows[1]![1], '/console/users/user-alice');
    const [alicia, alice, old] = rows.map((r) => cells(`<td>${r[3]}`)).slice(0, 3);
    assert.deepEqual(alicia!.slice(1), ['Never', 'Disabled', '0']);
    assert.deepEqual(alice!.slice(1), ['Jan 10, 2026, 10:00:00 AM', 'Active', '2']);
    assert.equal(alice![0], 'Jan 10, 2026, 9:00:00 AM');
    assert.deepEqual(old!.slice(1), ['Never', 'Active', '0']);
    assert.doesNotMatch(html, /user-other/, 'another tenant’s people are not listed');
    const next = /<a href="([^"]+)" rel="next">Next page<\/a>/.exec(html);
    assert.ok(next, 'a Next page link');
    assert.equal(hrefOf(next[1]!), '/console/users?cursor=user-old-47');
    const second = await (await support.get(hrefOf(next[1]!))).text();
    const rest = [...second.matchAll(/<tr><td><a href="[^"]+">([^<]+)<\/a>/g)].map((m) => m[1]);
    assert.deepEqual(rest, ['old48@example.com', 'old49@example.com']);
    assert.doesNotMatch(second, /rel="next"/, 'the last page has no Next page link');
    assert.match(second, /<a href="\/console\/users">Newest people<\/a>/, 'back to the first page');
  });

  it('a cursor that is not one is the 400 page, not a 500', async () => {
    const bad = await support.get('/console/users?cursor=%7B%22%24ne%22%3Anull%7D');
    assert.equal(bad.status, 400);
    assert.match(await bad.text(), /cursor/);
    assert.equal((await support.get(`/console/users?cursor=${'a'.repeat(401)}`)).status, 400);
    assert.equal((await support.get('/console/users?cursor=a&cursor=b')).status, 400, 'one cursor');
  });

  it('search by the start of an address (3+ characters, any case) lists every match; a user id or exact address still works', async () => {
    const html = await (await support.get('/console/users?query=ALI')).text();
    const found = [...html.matchAll(/<tr><td><a href="([^"]+)">([^<]+)<\/a><\/td><td><code>/g)].map((m) => [
      m[1],
      m[2],
    ]);
    assert.deepEqual(found, [
      ['/console/users/user-alice', 'alice@example.com'],
      ['/console/users/user-alicia', 'alicia@example.com'],
    ]);
    assert.match(html, /<td>start of the address<\/td>/);
    assert.doesNotMatch(html, /rel="next"/, 'a search shows no list of people');
    const none = await (await support.get('/console/users?query=al')).text();
    assert.match(none, /Nobody in this tenant matches “al”\./);
    const exact = await (await support.get('/console/users?query=alice%40example.com')).text();
    assert.match(exact, /<td>email<\/td>/);
    assert.match(await (await support.get('/console/users?query=user-alicia')).text(), /<td>user ID<\/td>/);
  });

  it('Add a person: only for roles with person.add; sends the registration link as an admin event of the real actor', async () => {
    assert.doesNotMatch(await (await support.get('/console/users')).text(), /Add a person/);
    assert.equal((await support.get('/console/people/new')).status, 403);
    const users = await (await admin.get('/console/users')).text();
    assert.match(users, /<a class="button secondary" href="\/console\/people\/new">Add a person<\/a>/);
    const form = await (await admin.get('/console/people/new')).text();
    assert.match(form, /<label for="person-email">Email address<\/label>/);
    assert.match(form, /<label for="person-app">Application<\/label>/);
    assert.match(form, new RegExp(`<option value="${appId}">Shop</option>`));
    assert.match(form, /<button type="submit">Send registration link<\/button>/);
    const csrf = csrfOf(form);
    const before = f.h.peers.activationCalls.length;

    const bad = await admin.post('/console/people/new', { csrf, email: 'not-an-address', app: '' });
    assert.equal(bad.status, 400);
    const badHtml = await bad.text();
    assert.match(badHtml, /id="person-email"[^>]*value="not-an-address" aria-invalid="true"/);
    assert.match(
      badHtml,
      /<p id="person-email-error" class="error field-error">Email address must be an email address<\/p>/,
    );
    assert.match(
      badHtml,
      /<p id="person-app-error" class="error field-error">Application: choose an application<\/p>/,
    );
    const bare = await admin.post('/console/people/new', { csrf, email: 'new@example.com', app: bareAppId });
    assert.equal(bare.status, 400);
    assert.match(
      await bare.text(),
      /id="person-app-error"[^>]*>Application: the application has no registration redirect URI/,
    );
    assert.equal(f.h.peers.activationCalls.length, before, 'nothing sent for a refused form');
    f.h.peers.limitedAddresses.add('busy@example.com');
    const eventsBefore = f.h.adminEvents.length;
    const limited = await admin.post('/console/people/new', { csrf, email: 'busy@example.com', app: appId });
    assert.equal(limited.status, 429);
    assert.match(await limited.text(), /too many registration mails; retry later/);
    assert.equal(f.h.adminEvents.length, eventsBefore, 'no event for a link not sent');

    const sent = await admin.post('/console/people/new', { csrf, email: ' New@Example.com ', app: appId });
    assert.equal(sent.status, 200);
    assert.match(
      await sent.text(),
      /<p class="notice" role="status">Registration link sent to new@example\.com\.<\/p>/,
    );
    const call = f.h.peers.activationCalls.at(-1)!;
    assert.deepEqual(
      [call.tenantId, call.appId, call.userEmail, call.registrationRedirectUri],
      [f.tenantId, appId, 'new@example.com', 'https://shop.test/registered'],
    );
    const e = f.h.adminEvents.at(-1)!;
    assert.deepEqual(
      [e.activityType, e.adminEmail, e.tenantId, e.data?.email, e.data?.appId],
      ['administrator_add_person', 'admin@acme.test', f.tenantId, 'new@example.com', appId],
    );
  });

  it('the person page: created, masked phone number, passkeys in words; Support may remove a passkey, not the phone number', async () => {
    const html = await (await support.get('/console/users/user-alice')).text();
    assert.match(html, /<dt>Created<\/dt><dd><time datetime="2026-01-10T09:00:00.000Z"/);
    assert.match(html, /<dd><span>\+•••••••••67<\/span><\/dd>/);
    assert.doesNotMatch(html, /Remove phone number/, 'Support may not remove the phone number');
    assert.doesNotMatch(html, /Disable account/);
    assert.match(html, /<h2 id="passkeys">Passkeys<\/h2>/);
    const rows = [...html.matchAll(/<tr><td id="passkey-\d">(.*?)<\/tr>/gs)].map((m) => cells(`<td>${m[1]}`));
    assert.deepEqual(
      rows.map((r) => [r[0], r[2], r[3]]),
      [
        ['YubiKey 5 Series', 'Jan 10, 2026, 10:00:00 AM', 'Work laptop'],
        ['Passkey', 'Never', 'lost phone'],
      ],
    );
    const buttons = [
      ...html.matchAll(
        /<button type="submit" class="secondary" aria-describedby="(passkey-\d)">([^<]+)<\/button>/g,
      ),
    ];
    assert.deepEqual(
      buttons.map((b) => [b[1], b[2]]),
      [
        ['passkey-0', 'Remove passkey'],
        ['passkey-1', 'Remove passkey'],
      ],
    );
    assert.match(html, /action="\/console\/users\/user-alice\/passkeys\/cred%2Fphone\/remove"/);
    const adminPage = await (await admin.get('/console/users/user-alice')).text();
    assert.match(adminPage, />Remove phone number<\/button>/);
    assert.match(adminPage, /<h2 id="sessions">Sessions<\/h2>/);
    assert.match(
      adminPage,
      /<h2 id="applications">Applications<\/h2>/,
      'the applications they use stay listed',
    );
  });

  it('Remove passkey asks first, then removes it as the real actor and says they can make a new one', async () => {
    const path = '/console/users/user-alice/passkeys/cred%2Fphone/remove';
    const csrf = csrfOf(await (await support.get('/console/users/user-alice')).text());
    const asked = await support.post(path, { csrf });
    assert.equal(asked.status, 200);
    const confirm = await asked.text();
    assert.match(confirm, /Confirm: Remove passkey/);
    assert.match(confirm, /Applies to: Passkey \(lost phone\)/);
    assert.match(confirm, /<button type="submit" class="danger">Remove passkey<\/button>/);
    assert.equal(port.people.find((p) => p.userId === 'user-alice')!.passkeys!.length, 2, 'nothing yet');

    const done = await support.post(path, { csrf, confirm: 'yes' });
    assert.equal(done.status, 303);
    assert.equal(done.headers.get('location'), '/console/users/user-alice?done=passkeyRemoved#passkeys');
    assert.deepEqual(
      port.people.find((p) => p.userId === 'user-alice')!.passkeys!.map((k) => k.credentialId),
      ['cred-yubi'],
    );
    const e = f.h.adminEvents.at(-1)!;
    assert.deepEqual(
      [e.activityType, e.adminEmail, e.data],
      [
        'administrator_remove_user_passkey',
        'support@acme.test',
        { userId: 'user-alice', credentialId: 'cred/phone' },
      ],
    );
    const after = await (await support.get(done.headers.get('location')!)).text();
    assert.match(after, /Passkey removed\. .*they can sign in by email and make a new one\./);
    assert.equal((await support.post(path, { csrf, confirm: 'yes' })).status, 404, 'gone: not found');
    assert.equal(
      (await support.post(path, { csrf })).status,
      404,
      'no confirmation of a passkey that is not there',
    );
  });

  it('Remove phone number: Support is refused; an Administrator confirms and it is forgotten', async () => {
    const supportCsrf = csrfOf(await (await support.get('/console/users/user-alice')).text());
    const refused = await support.post('/console/users/user-alice/phone/remove', {
      csrf: supportCsrf,
      confirm: 'yes',
    });
    assert.equal(refused.status, 403);
    const csrf = csrfOf(await (await admin.get('/console/users/user-alice')).text());
    const asked = await admin.post('/console/users/user-alice/phone/remove', { csrf });
    assert.equal(asked.status, 200);
    assert.match(await asked.text(), /Sesame forgets this person’s phone number/);
    assert.equal(port.people.find((p) => p.userId === 'user-alice')!.phoneMasked, '+•••••••••67');
    const done = await admin.post('/console/users/user-alice/phone/remove', { csrf, confirm: 'yes' });
    assert.equal(done.status, 303);
    assert.equal(port.people.find((p) => p.userId === 'user-alice')!.phoneMasked, undefined);
    assert.deepEqual(
      [f.h.adminEvents.at(-1)!.activityType, f.h.adminEvents.at(-1)!.adminEmail],
      ['administrator_remove_user_phone_number', 'admin@acme.test'],
    );
    const after = await (await admin.get(done.headers.get('location')!)).text();
    assert.match(after, /Phone number removed\./);
    assert.match(after, /No phone number\./);
  });

  it('another tenant’s person is not found, for the page and each action', async () => {
    const csrf = csrfOf(await (await admin.get('/console/users/user-alice')).text());
    port.people.find((p) => p.userId === 'user-other')!.passkeys = [
      { credentialId: 'cred-x', createdAt: T0, deviceId: 'd', deviceName: 'x', suspected: false },
    ];
    port.people.find((p) => p.userId === 'user-other')!.phoneMasked = '+••••1';
    assert.equal((await admin.get('/console/users/user-other')).status, 404);
    for (const path of [
      '/console/users/user-other/passkeys/cred-x/remove',
      '/console/users/user-other/phone/remove',
    ]) {
      assert.equal((await admin.post(path, { csrf })).status, 404, path);
      assert.equal((await admin.post(path, { csrf, confirm: 'yes' })).status, 404, path);
    }
    assert.equal(port.people.find((p) => p.userId === 'user-other')!.passkeys!.length, 1);
    assert.equal(port.people.find((p) => p.userId === 'user-other')!.phoneMasked, '+••••1');
  });
});
