import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { users } from '@sesame/proto';
import { type ConsoleFixture, signedIn, startConsole, stopConsole } from '../testing/console-fixture';
import type { ConsoleBrowser } from '../testing/fake-provider';
import { flowOf, supportData } from '../testing/support-data';
import { MemorySupport } from '../testing/support-memory';

const rows = (html: string) =>
  [...html.matchAll(/<td>([^<]*(?:Wrong|Signed|Blocked|Abandoned)[^<]*)<\/td><\/tr>/g)].map((m) => m[1]);

/** An href as the browser reads it (Handlebars escapes & and =). */
const hrefOf = (href: string) => href.replace(/&amp;/g, '&').replace(/&#x3D;/g, '=');

describe('console: Users and Activity without a support look-up', () => {
  let f: ConsoleFixture;
  beforeAll(async () => {
    f = await startConsole([['support@acme.test', 'support']]);
  });
  afterAll(() => stopConsole(f));

  it('the pages answer 503 saying support look-up is not configured', async () => {
    const b = await signedIn(f, 'support@acme.test');
    for (const path of ['/console/users?query=a%40b.c', '/console/activity', '/console/activity/flow-1']) {
      const res = await b.get(path);
      assert.equal(res.status, 503, path);
      assert.match(await res.text(), /Support look-up is not configured on this server\./);
    }
  });
});

describe('console: Users and Activity', () => {
  let f: ConsoleFixture;
  let support: ConsoleBrowser;
  let admin: ConsoleBrowser;
  const port = new MemorySupport();
  let appId: string;
  beforeAll(async () => {
    f = await startConsole(
      [
        ['support@acme.test', 'support'],
        ['admin@acme.test', 'administrator'],
      ],
      'Acme',
      { support: port },
    );
    const other = await f.h.createTenant('Other');
    const created = await f.h.admin('POST', `/api/v1/admin/tenants/${f.tenantId}/applications`, {
      name: 'Acme shop',
    });
    appId = ((await created.json()) as { appId: string }).appId;
    supportData(port, f.tenantId, other, appId);
    f.h.peers.memberships.push(
      { tenantId: f.tenantId, appId, userId: 'user-alice' },
      { tenantId: f.tenantId, appId: 'app-2', userId: 'user-alice' },
    );
    support = await signedIn(f, 'support@acme.test');
    admin = await signedIn(f, 'admin@acme.test');
  });
  afterAll(() => stopConsole(f));

  it('Users: Find a user by exact email (any case) → the person of this tenant only', async () => {
    const page = await (await support.get('/console/users')).text();
    assert.match(page, /<label for="user-query">Find a user<\/label>/);
    assert.match(page, /<button type="submit">Search<\/button>/);
    const html = await (await support.get('/console/users?query=ALICE%40Example.com')).text();
    const links = [...html.matchAll(/href="(\/console\/users\/[^"]+)">([^<]+)</g)].map((m) => [m[1], m[2]]);
    assert.deepEqual(links, [['/console/users/user-alice', 'alice@example.com']]);
    const byAlias = await (
      await support.get(`/console/users?${new URLSearchParams({ query: 'alice-1', app: appId })}`)
    ).text();
    assert.match(
      byAlias,
      /href="\/console\/users\/user-alice">alice@example\.com<\/a><\/td><td><code>user-alice<\/code><\/td><td>alias<\/td>/,
    );
    const otherApp = await (
      await support.get(`/console/users?${new URLSearchParams({ query: 'alice-1', app: 'app-2' })}`)
    ).text();
    assert.match(otherApp, /Nobody in this tenant matches/);
  });

  it('a search built to break the query finds nobody and is never a server error', async () => {
    for (const q of ['{"$ne":null}', '.*', '^a', 'alice@example.com|x', "' OR 1=1 --"]) {
      const res = await support.get(`/console/users?query=${encodeURIComponent(q)}`);
      assert.equal(res.status, 200, q);
      assert.match(await res.text(), /Nobody in this tenant matches/, q);
    }
    const nested = await support.get('/console/users?query[$ne]=x');
    assert.equal(nested.status, 400);
    const huge = await support.get(`/console/users?query=${'a'.repeat(10_240)}`);
    assert.equal(huge.status, 400);
  });

  it('a person’s page: heading the email; sign-ins newest first with outcomes in words; devices; applications', async () => {
    const res = await support.get('/console/users/user-alice');
    assert.equal(res.status, 200);
    const html = await res.text();
    assert.ok(Buffer.byteLength(html) < 100_000, 'under 100 KB');
    assert.match(html, /<h1>alice@example\.com<\/h1>/);
    assert.match(
      html,
      /<h2 id="sign-ins">Sign-ins<\/h2>[\s\S]*<h2 id="devices">Devices<\/h2>[\s\S]*<h2 id="applications">Applications<\/h2>/,
    );
    assert.deepEqual(rows(html), [
      'Wrong code entered 5 times; the code was invalidated',
      'Signed in with an email code',
    ]);
    assert.match(html, /<time datetime="2026-01-01T10:00:00.000Z" title="2026-01-01 10:00:00 UTC">/);
    assert.match(html, /Chrome on macOS/);
    assert.match(html, /Acme shop/);
    assert.match(html, /aria-label="Block Chrome on macOS">Block<\/button>/);
    assert.doesNotMatch(html, /Remove from application/, 'Support may not remove');
  });

  it('times show in the viewer’s zone (?tz=, kept in a cookie), UTC in the title', async () => {
    const res = await support.get('/console/users/user-alice?tz=Europe/Berlin');
    const html = await res.text();
    assert.match(res.headers.get('set-cookie') ?? '', /sesame-console-tz=Europe%2FBerlin/);
    assert.match(html, /title="2026-01-01 10:00:00 UTC">Jan 1, 2026, 11:00:00/);
    assert.equal((await support.get('/console/users/user-alice?tz=Not/AZone')).status, 200);
  });

  it('in German and French: the sections and the outcomes in the page’s language', async () => {
    const page = async (lang: string) =>
      (
        await fetch(`${f.h.url}/console/users/user-alice`, {
          headers: { cookie: `sesame-console=${support.cookie}`, 'accept-language': lang },
        })
      ).text();
    const de = await page('de');
    assert.match(de, /<h2 id="sign-ins">Anmeldungen<\/h2>/);
    assert.match(de, /<td>5-mal falscher Code eingegeben; der Code wurde ungültig gemacht<\/td>/);
    const fr = await page('fr');
    assert.match(fr, /<h2 id="devices">Appareils<\/h2>/);
    assert.match(fr, /<td>Code erroné saisi 5 fois ; le code a été invalidé<\/td>/);
  });

  it('another tenant’s person is not found', async () => {
    assert.equal((await support.get('/console/users/user-other')).status, 404);
  });

  it('Block on a device does what the admin API does, as the Support administrator', async () => {
    const page = await (await support.get('/console/users/user-alice')).text();
    const csrf = /name="csrf" value="([^"]+)"/.exec(page)![1]!;
    const res = await support.post('/console/users/user-alice/devices/device-1/block', {
      confirm: 'yes',
      csrf,
      allowAccess: 'false',
    });
    assert.equal(res.status, 303);
    assert.deepEqual(f.h.peers.blocked.at(-1), {
      tenantId: f.tenantId,
      userId: 'user-alice',
      deviceId: 'device-1',
      allowAccess: false,
    });
    assert.equal(f.h.peers.revokedGrants.at(-1)?.deviceId, 'device-1');
    const e = f.h.adminEvents.at(-1)!;
    assert.equal(e.activityType, 'administrator_block_user_device');
    assert.equal(e.adminEmail, 'support@acme.test');
    assert.deepEqual(e.data, { deviceId: 'device-1', userId: 'user-alice', allowAccess: false });
    const forged = await support.post('/console/users/user-alice/devices/device-1/block', {
      confirm: 'yes',
      csrf: 'x',
      allowAccess: 'false',
    });
    assert.equal(forged.status, 403);
  });

  it('removal: Support is refused; an Administrator confirms and removes from the application', async () => {
    const page = await (await support.get('/console/users/user-alice')).text();
    const csrf = /name="csrf" value="([^"]+)"/.exec(page)![1]!;
    assert.equal(
      (await support.post('/console/users/user-alice/remove', { confirm: 'yes', csrf, app: appId })).status,
      403,
    );
    assert.equal(f.h.peers.removeCalls.length, 0);
    const confirm = await (
      await admin.get(`/console/users/user-alice/remove?${new URLSearchParams({ app: appId })}`)
    ).text();
    assert.match(confirm, /Remove alice@example\.com from Acme shop\?/);
    const adminCsrf = /name="csrf" value="([^"]+)"/.exec(confirm)![1]!;
    const foreign = await admin.post('/console/users/user-alice/remove', {
      confirm: 'yes',
      csrf: adminCsrf,
      app: 'app-of-nobody',
    });
    assert.equal(foreign.status, 404);
    const res = await admin.post('/console/users/user-alice/remove', {
      confirm: 'yes',
      csrf: adminCsrf,
      app: appId,
    });
    assert.equal(res.status, 303);
    // A removal from the tenant erases the person's records (issue 38): kept here for the Activity tests below.
    const alices = port.flows.filter((x) => x.userId === 'user-alice');
    const tenantWide = await admin.post('/console/users/user-alice/remove', {
      confirm: 'yes',
      csrf: adminCsrf,
    });
    assert.equal(tenantWide.status, 303);
    assert.equal(port.flows.filter((x) => x.userId === 'user-alice').length, 0);
    port.flows.push(...alices);
    assert.deepEqual(
      f.h.peers.removeCalls.map((r) => [r.tenantId, r.identifier, r.identifierType, r.scope, r.appId]),
      [
        [
          f.tenantId,
          'user-alice',
          users.UserIdentifierType.USER_IDENTIFIER_TYPE_USER_ID,
          users.RemovalScope.REMOVAL_SCOPE_APP,
          appId,
        ],
        [
          f.tenantId,
          'user-alice',
          users.UserIdentifierType.USER_IDENTIFIER_TYPE_USER_ID,
          users.RemovalScope.REMOVAL_SCOPE_TENANT,
          '',
        ],
      ],
    );
  });

  it('a sign-in’s page: outcome, timeline in words, devices and IP, raw JSON; another tenant’s is not found', async () => {
    const html = await (await support.get('/console/activity/flow-bad')).text();
    assert.match(html, /<p class="lead">Wrong code entered 5 times; the code was invalidated<\/p>/);
    assert.equal([...html.matchAll(/Entered a wrong or expired email code\./g)].length, 5);
    assert.match(html, /Saw the sign-in page \(the email step\)\./);
    assert.match(html, /203\.0\.113\.7/);
    assert.match(html, /<pre class="raw"[^>]*>[^<]*&quot;id&quot;: &quot;flow-bad&quot;/);
    assert.equal((await support.get('/console/activity/flow-other')).status, 404);
  });

  it('Activity: filters and cursor paging (Next / Newer)', async () => {
    const failures = await (await support.get('/console/activity?status=failure')).text();
    assert.deepEqual(rows(failures), ['Wrong code entered 5 times; the code was invalidated']);
    const blocked = await (await support.get('/console/activity?status=blocked')).text();
    assert.deepEqual(rows(blocked), ['Blocked: sign-in from a blocked country (RU)']);
    assert.equal((await support.get('/console/activity?status=%24ne')).status, 400);

    for (let i = 0; i < 60; i++) {
      port.addFlow(
        flowOf(f.tenantId, `bulk-${String(i).padStart(2, '0')}`, Date.UTC(2026, 1, 1) + i, [
          'auth_start_oidc',
          'desktop_login_page',
        ]),
      );
    }
    const first = await (await support.get('/console/activity?flowType=authentication')).text();
    assert.equal(rows(first).length, 50);
    assert.ok(Buffer.byteLength(first) < 100_000, 'a full page is under 100 KB');
    assert.doesNotMatch(first, /rel="prev"/);
    const next = hrefOf(/<a href="([^"]+)" rel="next">Next<\/a>/.exec(first)![1]!);
    // a record arriving meanwhile does not shift the next page
    port.addFlow(flowOf(f.tenantId, 'late', Date.UTC(2026, 2, 1), ['auth_start_oidc']));
    const second = await (await support.get(next)).text();
    const ids = [...second.matchAll(/href="\/console\/activity\/([\w-]+)"/g)].map((m) => m[1]);
    assert.deepEqual(ids.slice(0, 2), ['bulk-09', 'bulk-08']);
    assert.equal(ids.length, 13);
    const newer = hrefOf(/<a href="([^"]+)" rel="prev">Newer<\/a>/.exec(second)![1]!);
    const back = await (await support.get(newer)).text();
    assert.match(back, /href="\/console\/activity\/late"/);
    assert.match(back, /Abandoned at the email step/);
  });

  it('Export CSV / JSON of the filtered set and of one flow: streamed, neutralised, each recorded as the exporter', async () => {
    const page = await (await support.get('/console/activity?status=failure')).text();
    assert.match(page, /value="csv"[^>]*>Export CSV<\/button>/);
    const csrf = /name="csrf" value="([^"]+)"/.exec(page)![1]!;
    const csv = await support.post('/console/activity/export', { csrf, format: 'csv', status: 'failure' });
    assert.equal(csv.status, 200);
    assert.match(csv.headers.get('content-type')!, /^text\/csv/);
    assert.match(csv.headers.get('content-disposition')!, /^attachment; filename="sign-ins-.*\.csv"$/);
    const lines = (await csv.text()).trim().split('\r\n');
    assert.equal(lines.length, 2);
    assert.match(lines[1]!, /^flow-bad,/);
    assert.match(lines[1]!, /,"'=HYPERLINK\(""http:\/\/evil\.test""\) email code/);
    let e = f.h.adminEvents.at(-1)!;
    assert.deepEqual(
      [e.activityType, e.adminEmail, e.data],
      ['administrator_export_event_data', 'support@acme.test', { multipeEvents: true }],
    );
    const json = await support.post('/console/activity/flow-bad/export', { csrf, format: 'json' });
    assert.equal(json.status, 200);
    assert.equal(((await json.json()) as { id: string }).id, 'flow-bad');
    e = f.h.adminEvents.at(-1)!;
    assert.deepEqual(e.data, { multipeEvents: false, flowId: 'flow-bad' });
    const all = await support.post('/console/activity/export', { csrf, format: 'json' });
    const records = (await all.json()) as { id: string }[];
    assert.ok(
      records.every((r) => r.id !== 'flow-other'),
      'never another tenant’s',
    );
    assert.equal(new Set(records.map((r) => r.id)).size, records.length);
  });
});
