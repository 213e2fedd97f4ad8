import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { type ConsoleFixture, signedIn, startConsole, stopConsole } from '../testing/console-fixture';
import { ConsoleBrowser } from '../testing/fake-provider';
import { supportData } from '../testing/support-data';
import { MemorySupport } from '../testing/support-memory';

const csrf = ConsoleBrowser.csrfOf;
const unescapeHtml = (v: string) =>
  v
    .replace(/&#x3D;/g, '=')
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** The confirmation step's form as a browser submits it: its action and every hidden field. */
const confirmationForm = (html: string) => {
  const form =
    /<section class="danger-zone"[\s\S]*?<form method="post" action="([^"]+)">([\s\S]*?)<\/form>/.exec(html);
  assert.ok(form, 'the confirmation form');
  const fields: Record<string, string> = {};
  for (const m of form[2]!.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    fields[unescapeHtml(m[1]!)] = unescapeHtml(m[2]!);
  }
  return { action: unescapeHtml(form[1]!), fields, html: form[0] };
};

describe('console Danger zone: every destructive action asks once, saying what breaks', () => {
  let f: ConsoleFixture;
  let owner: ConsoleBrowser;
  let ids: { shop: string; old: string; credentialsId: string };
  beforeAll(async () => {
    const port = new MemorySupport();
    f = await startConsole(
      [
        ['owner@acme.test', 'owner'],
        ['other@acme.test', 'administrator'],
      ],
      'Acme',
      { support: port },
    );
    const app = async (name: string) =>
      (
        (await (
          await f.h.admin('POST', `/api/v1/admin/tenants/${f.tenantId}/applications`, {
            name,
            redirectUris: [`https://${name.toLowerCase()}.test/cb`],
          })
        ).json()) as { appId: string }
      ).appId;
    const shop = await app('Shop');
    const old = await app('Old');
    const { credentialsId } = (await (
      await f.h.admin('POST', `/api/v1/admin/tenants/${f.tenantId}/credentials`, {})
    ).json()) as { credentialsId: string };
    await f.h.admins.tokens.create({
      tokenId: 'tok-own',
      tenantId: f.tenantId,
      email: 'owner@acme.test',
      name: 'mine',
      tokenHash: 'hash-own',
      createdAt: f.h.clock.now(),
      expiresAt: f.h.clock.now() + 86_400_000,
    });
    supportData(port, f.tenantId, await f.h.createTenant('Other'), shop);
    f.h.peers.memberships.push({ tenantId: f.tenantId, appId: shop, userId: 'user-alice' });
    owner = await signedIn(f, 'owner@acme.test');
    // Some branding to reset.
    const form = new FormData();
    const page = await (await owner.get('/console/branding')).text();
    for (const [k, v] of Object.entries({
      csrf: csrf(page),
      displayName: 'ACME',
      lightAccent: '#1d4ed8',
      lightBackground: '#ffffff',
    }))
      form.append(k, v);
    const saved = await fetch(`${f.h.url}/console/branding`, {
      method: 'POST',
      body: form,
      redirect: 'manual',
      headers: { cookie: `sesame-console=${owner.cookie}` },
    });
    assert.equal(saved.status, 303);
    ids = { shop, old, credentialsId };
  });
  afterAll(() => stopConsole(f));

  /** Everything a destructive action could change. */
  const state = async () => ({
    events: f.h.adminEvents.length,
    apps: await f.h.dir.applications.list(f.tenantId),
    credentials: await f.h.dir.credentials.list(f.tenantId),
    tokens: await f.h.admins.tokens.list(f.tenantId),
    admins: await f.h.admins.accounts.list(f.tenantId),
    branding: await f.h.dir.branding.get(f.tenantId),
    blocked: f.h.peers.blocked.length,
    removed: f.h.peers.removeCalls.length,
  });

  interface Case {
    path: () => string;
    form?: Record<string, string>;
    /** The start of what the confirmation says breaks. */
    breaks: string;
    /** The confirm button's text, and its accessible name when that differs (table rows). */
    button: string;
    name?: string;
    cancel: () => string;
    /** What the confirmed action answers, and how the stores show it was done. */
    status: number;
    done: (before: Awaited<ReturnType<typeof state>>, after: Awaited<ReturnType<typeof state>>) => void;
  }
  const secretOf = (s: Awaited<ReturnType<typeof state>>) =>
    s.apps.find((a) => a.appId === ids.shop)?.clientSecretHash;
  const cases: Record<string, Case> = {
    'Rotate client secret': {
      path: () => `/console/applications/${ids.shop}/secret`,
      breaks: 'Rotate client secret: the current secret stops working at once',
      button: 'Rotate client secret',
      cancel: () => `/console/applications/${ids.shop}`,
      status: 200,
      done: (b, a) => assert.notEqual(secretOf(a), secretOf(b)),
    },
    'Change client type': {
      path: () => `/console/applications/${ids.shop}/client-type`,
      form: { clientType: 'public' },
      breaks: 'Change client type: a confidential application gets a new secret and a public one has none',
      button: 'Change client type',
      cancel: () => `/console/applications/${ids.shop}`,
      status: 303,
      done: (_b, a) => assert.equal(a.apps.find((x) => x.appId === ids.shop)?.clientType, 'public'),
    },
    'Remove application': {
      path: () => `/console/applications/${ids.old}/remove`,
      form: { confirmName: 'Old' },
      breaks: 'Remove application: sign-in through this application stops at once',
      button: 'Remove application',
      cancel: () => `/console/applications/${ids.old}`,
      status: 303,
      done: (_b, a) =>
        assert.equal(
          a.apps.find((x) => x.appId === ids.old),
          undefined,
        ),
    },
    'Revoke API credentials': {
      path: () => `/console/credentials/${ids.credentialsId}/revoke`,
      breaks: 'Revoke API credentials: the credentials stop working at once',
      button: 'Revoke credentials',
      cancel: () => '/console/credentials',
      status: 303,
      done: (_b, a) => assert.notEqual(a.credentials[0]?.revokedAt, undefined),
    },
    'Remove administrator': {
      path: () => '/console/administrators/other%40acme.test/remove',
      breaks: 'Remove administrator: this person loses access to the console and the admin API',
      button: 'Remove',
      name: 'Remove other@acme.test',
      cancel: () => '/console/administrators',
      status: 303,
      done: (_b, a) =>
        assert.deepEqual(
          a.admins.map((x) => x.email),
          ['owner@acme.test'],
        ),
    },
    'Revoke token': {
      path: () => '/console/tokens/tok-own/revoke',
      breaks: 'Revoke token: the token stops working at once',
      button: 'Revoke',
      name: 'Revoke mine',
      cancel: () => '/console/tokens',
      status: 303,
      done: (_b, a) => assert.notEqual(a.tokens.find((t) => t.tokenId === 'tok-own')?.revokedAt, undefined),
    },
    'Reset branding': {
      path: () => '/console/branding/reset',
      breaks: 'Reset branding: your logo, colours, links, sender name and mail texts are replaced',
      button: 'Reset to default',
      cancel: () => '/console/branding',
      status: 303,
      done: (_b, a) => assert.equal(a.branding, undefined),
    },
    'Block device': {
      path: () => '/console/users/user-alice/devices/device-1/block',
      form: { allowAccess: 'false' },
      breaks: 'Block device: this device can no longer be used to sign in',
      button: 'Block',
      name: 'Block Chrome on macOS',
      cancel: () => '/console/users/user-alice#devices',
      status: 303,
      done: (b, a) => {
        assert.equal(a.blocked, b.blocked + 1);
        assert.deepEqual(f.h.peers.blocked.at(-1), {
          tenantId: f.tenantId,
          userId: 'user-alice',
          deviceId: 'device-1',
          allowAccess: false,
        });
      },
    },
    'Remove person': {
      path: () => '/console/users/user-alice/remove',
      breaks: 'Remove person: their sign-ins and refresh tokens end at once',
      button: 'Yes, remove',
      cancel: () => '/console/users/user-alice',
      status: 303,
      done: (b, a) => assert.equal(a.removed, b.removed + 1),
    },
  };

  it('Unblock is not destructive: it acts at once (before the cases below remove the person)', async () => {
    const page = await (await owner.get('/console/tokens')).text();
    const blocked = f.h.peers.blocked.length;
    const res = await owner.post('/console/users/user-alice/devices/device-1/block', {
      csrf: csrf(page),
      allowAccess: 'true',
    });
    assert.equal(res.status, 303);
    assert.equal(f.h.peers.blocked.length, blocked + 1);
  });

  it('an Owner revoking another administrator’s token confirms with a button named like its row (Revoke {name} of {email})', async () => {
    await f.h.admins.tokens.create({
      tokenId: 'tok-other',
      tenantId: f.tenantId,
      email: 'other@acme.test',
      name: 'theirs',
      tokenHash: 'hash-other',
      createdAt: f.h.clock.now(),
      expiresAt: f.h.clock.now() + 86_400_000,
    });
    const page = await (await owner.get('/console/tokens')).text();
    assert.ok(page.includes('aria-label="Revoke theirs of other@acme.test"'));
    const asked = await owner.post('/console/tokens/tok-other/revoke', { csrf: csrf(page) });
    assert.equal(asked.status, 200);
    const form = confirmationForm(await asked.text());
    assert.ok(form.html.includes('aria-label="Revoke theirs of other@acme.test">Revoke</button>'));
    const stillLive = await f.h.admins.tokens.list(f.tenantId, 'other@acme.test');
    assert.equal(stillLive[0]?.revokedAt, undefined);
    assert.equal((await owner.post(form.action, form.fields)).status, 303);
    assert.notEqual((await f.h.admins.tokens.list(f.tenantId, 'other@acme.test'))[0]?.revokedAt, undefined);
  });

  for (const [action, c] of Object.entries(cases)) {
    it(`${action}: a POST without the confirmation changes nothing and shows it; confirmed, it acts`, async () => {
      const page = await (await owner.get('/console/tokens')).text();
      const before = await state();
      const asked = await owner.post(c.path(), { csrf: csrf(page), ...c.form });
      assert.equal(asked.status, 200);
      const html = await asked.text();
      assert.deepEqual(await state(), before, 'nothing changed before the confirmation');
      assert.match(html, /<h2 id="danger-zone">Danger zone<\/h2>/);
      assert.ok(html.includes(c.breaks), `says what breaks: ${c.breaks}`);
      const form = confirmationForm(html);
      assert.equal(form.action, `/console${c.path().slice('/console'.length)}`);
      assert.deepEqual(form.fields, { csrf: csrf(page), ...c.form, confirm: 'yes' });
      const button = /<button type="submit" class="danger"(?: aria-label="([^"]+)")?>([^<]+)<\/button>/.exec(
        form.html,
      );
      assert.equal(button?.[2], c.button);
      assert.equal(button?.[1] && unescapeHtml(button[1]), c.name);
      assert.ok(form.html.includes(`<a class="button secondary" href="${c.cancel()}">Cancel</a>`));

      const confirmed = await owner.post(form.action, form.fields);
      assert.equal(confirmed.status, c.status);
      c.done(before, await state());
    });
  }

  it('the confirmation of something not in this tenant is the 404 page, and nothing changes', async () => {
    const page = await (await owner.get('/console/tokens')).text();
    const before = await state();
    for (const path of [
      '/console/applications/app-nobody/secret',
      '/console/tokens/tok-nobody/revoke',
      '/console/administrators/nobody%40acme.test/remove',
    ]) {
      assert.equal((await owner.post(path, { csrf: csrf(page) })).status, 404, path);
    }
    assert.deepEqual(await state(), before);
  });

  it('the application page puts Change client type, Rotate client secret and Remove application in its Danger zone', async () => {
    const html = await (await owner.get(`/console/applications/${ids.shop}`)).text();
    const zone = /<section class="danger-zone"[\s\S]*?<\/section>/.exec(html)?.[0] ?? '';
    assert.match(zone, /Danger zone/);
    for (const b of ['Change client type', 'Remove application']) assert.ok(zone.includes(b), b);
  });
});
