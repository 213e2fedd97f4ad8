import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { CONSOLE_SHELL_CSS, baseCss } from '@sesame/branding';
import { type ConsoleFixture, signedIn, startConsole, stopConsole } from '../testing/console-fixture';
import { ConsoleBrowser } from '../testing/fake-provider';
import { flowOf } from '../testing/support-data';
import { MemorySupport } from '../testing/support-memory';
import { COPY_SCRIPT_PATH } from './copy-script';
import { CONSOLE_CSS } from './style';

/** The navigation's links as [name, href], from the desktop bar (the Menu repeats them for phones). */
const navLinks = (html: string) => {
  const bar = /<ul class="nav-bar">([\s\S]*?)<\/ul>/.exec(html)?.[1] ?? '';
  return [...bar.matchAll(/<a href="([^"]+)"(?: aria-current="page")?>([^<]+)<\/a>/g)].map((m) => [
    m[2],
    m[1],
  ]);
};
const menuLinks = (html: string) => {
  const menu = /<details class="nav-menu">([\s\S]*?)<\/details>/.exec(html)?.[1] ?? '';
  return [...menu.matchAll(/<a href="([^"]+)"(?: aria-current="page")?>([^<]+)<\/a>/g)].map((m) => [
    m[2],
    m[1],
  ]);
};
/** The checklist's steps as [link name, href, state]. */
const steps = (html: string) =>
  [
    ...html.matchAll(
      /<li class="(done|todo)" data-step="[\w-]+">[\s\S]*?<a href="([^"]+)">([^<]+)<\/a>\s*<span class="state">([^<]+)<\/span>/g,
    ),
  ].map((m) => [m[3], m[2]!.replace(/&#x3D;/g, '='), m[4]]);

describe('console shell: navigation by role, the 403 page, Home', () => {
  let f: ConsoleFixture;
  const support = new MemorySupport();
  let owner: ConsoleBrowser;
  let admin: ConsoleBrowser;
  let helpdesk: ConsoleBrowser;
  beforeAll(async () => {
    f = await startConsole(
      [
        ['owner@acme.test', 'owner'],
        ['admin@acme.test', 'administrator'],
        ['help@acme.test', 'support'],
      ],
      'Acme',
      { support },
    );
    owner = await signedIn(f, 'owner@acme.test');
    admin = await signedIn(f, 'admin@acme.test');
    helpdesk = await signedIn(f, 'help@acme.test');
  });
  afterAll(() => stopConsole(f));

  const all = [
    ['Home', '/console/home'],
    ['Applications', '/console/applications'],
    ['API credentials', '/console/credentials'],
    ['Users', '/console/users'],
    ['Activity', '/console/activity'],
    ['Admin logs', '/console/admin-logs'],
    ['Administrators', '/console/administrators'],
    ['Settings', '/console/settings'],
    ['Branding', '/console/branding'],
    ['Personal API tokens', '/console/tokens'],
  ];

  it('the navigation shows each role only the sections its role may open (Owner and Administrator all, Support four)', async () => {
    const expected = {
      owner: all,
      admin: all,
      helpdesk: [
        ['Users', '/console/users'],
        ['Activity', '/console/activity'],
        ['Admin logs', '/console/admin-logs'],
        ['Personal API tokens', '/console/tokens'],
      ],
    };
    for (const [who, b] of [
      ['owner', owner],
      ['admin', admin],
      ['helpdesk', helpdesk],
    ] as const) {
      const html = await (await b.get('/console/tokens')).text();
      assert.deepEqual(navLinks(html), expected[who], who);
      assert.deepEqual(menuLinks(html), expected[who], `${who}: the phone's Menu has the same links`);
      assert.match(html, /<details class="nav-menu">\s*<summary role="button">Menu<\/summary>/);
    }
  });

  it('every navigation link of every role opens a page, none a 403', async () => {
    for (const b of [owner, admin, helpdesk]) {
      const html = await (await b.get('/console/tokens')).text();
      for (const [name, href] of navLinks(html)) {
        const res = await b.get(href!);
        assert.equal(res.status, 200, `${name} (${href})`);
      }
    }
  });

  it('/console/ opens Home for an Owner and an Administrator, Users for Support', async () => {
    assert.equal((await owner.get('/console/')).headers.get('location'), '/console/home');
    assert.equal((await admin.get('/console/')).headers.get('location'), '/console/home');
    assert.equal((await helpdesk.get('/console/')).headers.get('location'), '/console/users');
  });

  it('a 403 keeps the navigation of the role and says which role can do it', async () => {
    const page = await helpdesk.get('/console/applications');
    assert.equal(page.status, 403);
    const html = await page.text();
    assert.deepEqual(
      navLinks(html).map(([name]) => name),
      ['Users', 'Activity', 'Admin logs', 'Personal API tokens'],
    );
    assert.match(html, /<h1>Not available to your role<\/h1>/);
    assert.match(
      html,
      /<p class="lead" role="alert">Your role does not allow this\. Only an Owner or Administrator can see applications\.<\/p>/,
    );
    assert.match(html, /<button type="submit" class="secondary">Sign out<\/button>/);
    const csrf = ConsoleBrowser.csrfOf(await (await helpdesk.get('/console/tokens')).text());
    const forged = await helpdesk.post('/console/applications', { csrf, name: 'Forged', redirectUris: '' });
    assert.equal(forged.status, 403);
    assert.match(await forged.text(), /Only an Owner or Administrator can manage applications\./);
    const role = await admin.get('/console/administrators/owner%40acme.test/role');
    assert.equal(role.status, 403);
    assert.match(await role.text(), /Only an Owner can change administrators’ roles\./);
  });

  it('the 403 page speaks the console’s language', async () => {
    const res = await fetch(`${f.h.url}/console/applications`, {
      headers: { cookie: `sesame-console=${helpdesk.cookie}`, 'accept-language': 'de' },
    });
    assert.equal(res.status, 403);
    assert.match(await res.text(), /Nur Inhaber oder Administratoren können Anwendungen sehen\./);
  });

  it('Support gets a 403 for Home, with its own navigation', async () => {
    const res = await helpdesk.get('/console/home');
    assert.equal(res.status, 403);
    assert.match(await res.text(), /Only an Owner or Administrator can manage applications\./);
  });

  it('Home: the checklist knows its state, step by step, each with a link to do it', async () => {
    const home = async () => {
      const res = await owner.get('/console/home');
      assert.equal(res.status, 200);
      return res.text();
    };
    const first = await home();
    assert.match(first, /<h1>Home<\/h1>/);
    assert.match(first, /<h2 id="get-started">Get started<\/h2>/);
    // admin@ and help@ are already colleagues of the Owner: the invite step is done from the start.
    assert.deepEqual(steps(first), [
      ['Create an application', '/console/applications?new', 'Not done yet'],
      ['Connect your application', '/console/applications', 'Not done yet'],
      ['Sign in once', '/console/activity', 'Not done yet'],
      ['Invite a colleague', '/console/administrators', 'Done'],
      ['Add your brand', '/console/branding', 'Not done yet'],
    ]);
    assert.match(first, /1 of 5 done/);

    const created = await f.h.admin('POST', `/api/v1/admin/tenants/${f.tenantId}/applications`, {
      name: 'Shop',
      redirectUris: ['https://shop.test/cb'],
    });
    const { appId } = (await created.json()) as { appId: string };
    const appHref = `/console/applications/${appId}`;
    assert.deepEqual(
      steps(await home()).map(([name, href, state]) => [name, href, state]),
      [
        ['Create an application', '/console/applications?new', 'Done'],
        ['Connect your application', appHref, 'Not done yet'],
        ['Sign in once', '/console/activity', 'Not done yet'],
        ['Invite a colleague', '/console/administrators', 'Done'],
        ['Add your brand', '/console/branding', 'Not done yet'],
      ],
    );

    // The app sent someone to sign in, who gave up: connected, but nobody signed in yet.
    support.addFlow(
      flowOf(f.tenantId, 'flow-1', f.h.clock.now(), ['flow_started'], {
        applicationId: appId,
        status: 'failure',
      }),
    );
    assert.deepEqual(
      steps(await home()).map(([, , state]) => state),
      ['Done', 'Done', 'Not done yet', 'Done', 'Not done yet'],
    );
    // A flow of another tenant never counts.
    support.addFlow(
      flowOf('other-tenant', 'flow-x', f.h.clock.now(), ['flow_started'], { status: 'success' }),
    );
    assert.equal(steps(await home())[2]![2], 'Not done yet');
    support.addFlow(
      flowOf(f.tenantId, 'flow-2', f.h.clock.now(), ['flow_started'], {
        applicationId: appId,
        status: 'success',
      }),
    );
    assert.equal(steps(await home())[2]![2], 'Done');

    await f.h.dir.branding.put({
      tenantId: f.tenantId,
      settings: { displayName: 'Acme' },
      updatedAt: f.h.clock.now(),
    });
    const done = await home();
    assert.deepEqual(
      steps(done).map(([, , state]) => state),
      ['Done', 'Done', 'Done', 'Done', 'Done'],
    );
    assert.match(done, /5 of 5 done/);
  });

  it('Home: the invite step is not done for a lone Owner, and done once an invitation is pending', async () => {
    const g = await startConsole([['solo@acme.test', 'owner']], 'Solo');
    try {
      const b = await signedIn(g, 'solo@acme.test');
      const invite = async () => steps(await (await b.get('/console/home')).text())[3];
      assert.deepEqual(await invite(), ['Invite a colleague', '/console/administrators', 'Not done yet']);
      await g.h.admin('POST', `/api/v1/admin/tenants/${g.tenantId}/invitations`, {
        email: 'new@acme.test',
        role: 'administrator',
      });
      assert.deepEqual(await invite(), ['Invite a colleague', '/console/administrators', 'Done']);
    } finally {
      await stopConsole(g);
    }
  });

  it('Home: the issuer and discovery URL, each with a Copy button the copy script shows', async () => {
    const res = await owner.get('/console/home');
    const html = await res.text();
    const issuer = f.provider.url.replace(/\/+$/, '');
    assert.match(
      html,
      new RegExp(
        `<label for="home-issuer">Issuer</label>\\s*<div class="copy-field">\\s*<input id="home-issuer" type="text" readonly value="${issuer}">`,
      ),
    );
    assert.match(
      html,
      new RegExp(
        `<input id="home-discovery" type="text" readonly value="${issuer}/.well-known/openid-configuration">`,
      ),
    );
    assert.match(
      html,
      /<button type="button" class="secondary" data-copy="home-issuer" data-done="Copied" aria-label="Copy Issuer" hidden>Copy<\/button>/,
    );
    assert.match(html, /aria-label="Copy Discovery URL" hidden>Copy<\/button>/);
    assert.ok(html.includes(`<script src="${COPY_SCRIPT_PATH}" defer></script>`));
    const csp = res.headers.get('content-security-policy') ?? '';
    assert.match(csp, /script-src 'self'/);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
    const script = await fetch(`${f.h.url}${COPY_SCRIPT_PATH}`);
    assert.equal(script.status, 200);
    assert.match(script.headers.get('content-type') ?? '', /^text\/javascript/);
    assert.match(await script.text(), /navigator\.clipboard\.writeText/);
  });

  it('pages without Copy buttons carry no script, and their policy allows none', async () => {
    const res = await owner.get('/console/tokens');
    assert.doesNotMatch(await res.text(), /<script/);
    assert.doesNotMatch(res.headers.get('content-security-policy') ?? '', /script-src/);
  });

  it('the console’s stylesheet is the hosted pages’ sesame.css and the shell part, both from @sesame/branding', () => {
    // The pages' own few rules (kinds, Connect your app, field errors, colour fields) follow the two.
    assert.ok(CONSOLE_CSS.startsWith(`${baseCss().toString('utf8')}${CONSOLE_SHELL_CSS}`));
    assert.ok(CONSOLE_CSS.length - baseCss().length - CONSOLE_SHELL_CSS.length < 3000);
    const base = baseCss().toString('utf8');
    // Buttons are as wide as their label, except in a hosted page's card.
    assert.match(base, /button,\n\.button \{\n {2}display: inline-flex;[\s\S]*?width: auto;/);
    assert.match(base, /\.card button,\n\.card \.button \{\n {2}display: flex;\n {2}width: 100%;/);
    // One type scale: page title > section heading > label.
    const size = (name: string) => Number(new RegExp(`--size-${name}: ([\\d.]+)rem`).exec(base)?.[1]);
    assert.ok(size('title') > size('section') && size('section') > size('label'));
    assert.match(CONSOLE_SHELL_CSS, /@media \(prefers-color-scheme: dark\)/);
  });
});
