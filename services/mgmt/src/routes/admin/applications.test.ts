import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { sha256 } from '@sesame/platform';
import { type MgmtHarness, errorOf, startMgmt } from '../../testing/mgmt-harness';

type App = Record<string, unknown> & { appId: string; clientId: string; clientSecret?: string };
describe('admin API: applications', () => {
  let h: MgmtHarness;
  let tenantId: string;
  let base: string;
  beforeAll(async () => {
    h = await startMgmt();
    tenantId = await h.createTenant('T');
    base = `/api/v1/admin/tenants/${tenantId}/applications`;
  });
  afterAll(() => h.stop());

  it('creates a confidential app: secret shown once, stored as its sha256, one create event with appId and appName', async () => {
    h.clock.t = 5000;
    const count = h.adminEvents.length;
    const res = await h.admin('POST', base, { name: 'Shop', redirectUris: ['https://shop.example/cb'] });
    assert.equal(res.status, 201);
    const app = (await res.json()) as App;
    assert.ok(app.clientSecret && app.clientSecret.length >= 43, 'a 256-bit secret');
    assert.deepEqual(app, {
      appId: app.appId,
      tenantId,
      name: 'Shop',
      clientId: app.clientId,
      public: false,
      redirectUris: ['https://shop.example/cb'],
      allowedScopes: ['openid', 'email', 'phone', 'svc_network_info'],
      ciba: { mode: 'poll', strictErrors: false },
      createdAt: 5000,
      updatedAt: 5000,
      clientSecret: app.clientSecret,
    });
    assert.equal(
      (await h.dir.applications.get(tenantId, app.appId))?.clientSecretHash,
      sha256(app.clientSecret),
    );
    const got = (await (await h.admin('GET', `${base}/${app.appId}`)).json()) as App;
    assert.equal('clientSecret' in got, false);
    assert.equal(JSON.stringify(got).includes(sha256(app.clientSecret)), false);
    assert.equal(h.adminEvents.length, count + 1);
    const event = h.adminEvents.at(-1)!;
    assert.equal(event.activityType, 'administrator_create_application');
    assert.equal(event.tenantId, tenantId);
    assert.deepEqual(event.data, { appId: app.appId, appName: 'Shop' });
  });

  it('creates a public app without any secret', async () => {
    const app = (await (
      await h.admin('POST', base, { name: 'SPA', public: true, redirectUris: ['http://localhost:3000/cb'] })
    ).json()) as App;
    assert.equal(app.public, true);
    assert.equal('clientSecret' in app, false);
    assert.equal((await h.dir.applications.get(tenantId, app.appId))?.clientSecretHash, undefined);
  });

  it('refuses bad settings with one message per field and publishes nothing', async () => {
    const count = h.adminEvents.length;
    const res = await h.admin('POST', base, {
      name: 'Bad',
      redirectUris: [
        'https://ok.example/cb',
        '/relative',
        'https://x.example/cb#frag',
        'javascript:alert(1)',
      ],
      allowedScopes: ['email', 'admin'],
      ciba: { mode: 'ping' },
      auxLinkPrefix: 'http://x.example/aux',
      registrationRedirectUri: 'not a url',
    });
    assert.equal(res.status, 400);
    const error = await errorOf(res);
    assert.equal(error.code, 'invalid_request');
    assert.deepEqual(error.fields, {
      'redirectUris.1': 'must be an absolute URI',
      'redirectUris.2': 'must not contain a fragment',
      'redirectUris.3':
        'must be https, http on a loopback host, or a private-use scheme such as com.example.app:',
      'allowedScopes.1': 'must be one of openid, email, phone, svc_network_info',
      'ciba.notificationEndpoint': 'is required in ping mode',
      auxLinkPrefix: 'must be an https:// URL ending with /',
      registrationRedirectUri: 'must not contain whitespace, control characters, * or \\',
    });
    assert.equal(h.adminEvents.length, count);
  });

  it('keeps a CIBA lifetime of 60 s to 24 h, and refuses one outside that', async () => {
    const ok = await h.admin('POST', base, { name: 'Short', ciba: { mode: 'poll', expiresIn: 600 } });
    assert.equal(ok.status, 201);
    assert.deepEqual(((await ok.json()) as { ciba: unknown }).ciba, {
      mode: 'poll',
      strictErrors: false,
      expiresIn: 600,
    });
    for (const expiresIn of [59, 86_401, 1.5]) {
      const res = await h.admin('POST', base, { name: 'Bad', ciba: { mode: 'poll', expiresIn } });
      assert.equal(res.status, 400);
      assert.deepEqual(Object.keys((await errorOf(res)).fields ?? {}), ['ciba.expiresIn']);
    }
  });

  it('refresh tokens: off unless set; defaults for lifetimes; idle within absolute; PATCH replaces, null turns off', async () => {
    const plain = (await (await h.admin('POST', base, { name: 'NoRefresh' })).json()) as Record<
      string,
      unknown
    >;
    assert.equal('refreshTokens' in plain, false);
    const on = await h.admin('POST', base, { name: 'Refresh', refreshTokens: { enabled: true } });
    assert.equal(on.status, 201);
    const app = (await on.json()) as { appId: string; refreshTokens: unknown };
    assert.deepEqual(app.refreshTokens, {
      enabled: true,
      absoluteLifetimeS: 2_592_000,
      idleLifetimeS: 604_800,
    });
    const bad = await h.admin('POST', base, {
      name: 'Bad',
      refreshTokens: { enabled: true, absoluteLifetimeS: 3600, idleLifetimeS: 7200 },
    });
    assert.equal(bad.status, 400);
    assert.deepEqual(Object.keys((await errorOf(bad)).fields ?? {}), ['refreshTokens.idleLifetimeS']);
    const tooLong = await h.admin('POST', base, {
      name: 'Bad',
      refreshTokens: { enabled: true, absoluteLifetimeS: 400 * 86400 },
    });
    assert.equal(tooLong.status, 400);
    const changed = await h.admin('PATCH', `${base}/${app.appId}`, {
      refreshTokens: { enabled: true, absoluteLifetimeS: 86400, idleLifetimeS: 3600 },
    });
    assert.deepEqual(((await changed.json()) as { refreshTokens: unknown }).refreshTokens, {
      enabled: true,
      absoluteLifetimeS: 86400,
      idleLifetimeS: 3600,
    });
    assert.deepEqual(JSON.parse(String(h.adminEvents.at(-1)?.data?.diff)).refreshTokens.to, {
      enabled: true,
      absoluteLifetimeS: 86400,
      idleLifetimeS: 3600,
    });
    const off = await h.admin('PATCH', `${base}/${app.appId}`, { refreshTokens: null });
    assert.equal('refreshTokens' in ((await off.json()) as object), false);
    assert.equal((await h.dir.applications.get(tenantId, app.appId))?.refreshTokens, undefined);
  });

  it('refuses allowedScopes without openid, a non-https notification endpoint and an aux prefix without the slash', async () => {
    const res = await h.admin('POST', base, {
      name: 'Bad2',
      allowedScopes: ['email'],
      ciba: { mode: 'ping', notificationEndpoint: 'http://rp.example/ciba' },
      auxLinkPrefix: 'https://x.example/aux',
    });
    assert.deepEqual((await errorOf(res)).fields, {
      allowedScopes: 'must include openid',
      'ciba.notificationEndpoint': 'must be an https URL (http only on localhost), without a fragment',
      auxLinkPrefix: 'must be an https:// URL ending with /',
    });
  });

  it('updates settings: one update event whose diff names exactly the changed fields; null clears', async () => {
    const app = (await (
      await h.admin('POST', base, {
        name: 'U',
        redirectUris: ['https://u.example/a'],
        auxLinkPrefix: 'https://u.example/aux/',
      })
    ).json()) as App;
    h.clock.t = 9000;
    const count = h.adminEvents.length;
    const res = await h.admin('PATCH', `${base}/${app.appId}`, {
      name: 'U',
      redirectUris: ['https://u.example/b'],
      ciba: { mode: 'ping', notificationEndpoint: 'https://u.example/ciba' },
      auxLinkPrefix: null,
    });
    assert.equal(res.status, 200);
    const updated = (await res.json()) as App;
    assert.deepEqual(updated.redirectUris, ['https://u.example/b']);
    assert.deepEqual(updated.ciba, {
      mode: 'ping',
      notificationEndpoint: 'https://u.example/ciba',
      strictErrors: false,
    });
    assert.equal('auxLinkPrefix' in updated, false);
    assert.equal(updated.updatedAt, 9000);
    assert.equal(h.adminEvents.length, count + 1);
    const event = h.adminEvents.at(-1)!;
    assert.equal(event.activityType, 'administrator_update_application');
    assert.deepEqual(JSON.parse(event.data?.diff), {
      redirectUris: { from: ['https://u.example/a'], to: ['https://u.example/b'] },
      ciba: {
        from: { mode: 'poll', strictErrors: false },
        to: { mode: 'ping', notificationEndpoint: 'https://u.example/ciba', strictErrors: false },
      },
      auxLinkPrefix: { from: 'https://u.example/aux/', to: null },
    });
    const again = await h.admin('PATCH', `${base}/${app.appId}`, {
      name: 'U',
      redirectUris: ['https://u.example/b'],
    });
    assert.equal(again.status, 200);
    assert.equal(h.adminEvents.length, count + 1, 'a no-op update publishes nothing');
    const bad = await h.admin('PATCH', `${base}/${app.appId}`, { clientType: 'public' });
    assert.deepEqual((await errorOf(bad)).fields, { '(body)': 'has unknown field(s)' });
  });

  it('lists the tenant apps only, and an app of another tenant is 404 application_not_found', async () => {
    const other = await h.createTenant('O');
    const mine = (await (await h.admin('POST', base, { name: 'Mine' })).json()) as App;
    const list = (await (await h.admin('GET', base)).json()) as { applications: App[] };
    assert.ok(list.applications.some((a) => a.appId === mine.appId));
    const theirs = (await (await h.admin('GET', `/api/v1/admin/tenants/${other}/applications`)).json()) as {
      applications: App[];
    };
    assert.deepEqual(theirs.applications, []);
    for (const method of ['GET', 'PATCH', 'DELETE']) {
      const res = await h.admin(
        method,
        `/api/v1/admin/tenants/${other}/applications/${mine.appId}`,
        method === 'PATCH' ? { name: 'x' } : undefined,
      );
      assert.equal(res.status, 404, method);
      assert.equal((await errorOf(res)).code, 'application_not_found');
    }
  });

  it('removes an app: one remove event with appId and appName; removing again is 404 without an event', async () => {
    const app = (await (await h.admin('POST', base, { name: 'Gone' })).json()) as App;
    const count = h.adminEvents.length;
    const res = await h.admin('DELETE', `${base}/${app.appId}`);
    assert.deepEqual(await res.json(), { status: 'success' });
    assert.equal(h.adminEvents.length, count + 1);
    assert.equal(h.adminEvents.at(-1)?.activityType, 'administrator_remove_application');
    assert.deepEqual(h.adminEvents.at(-1)?.data, { appId: app.appId, appName: 'Gone' });
    assert.equal((await h.admin('DELETE', `${base}/${app.appId}`)).status, 404);
    assert.equal(h.adminEvents.length, count + 1);
  });
});

describe('redirect URIs at registration (RFC 8252, no echo of input, no-store)', () => {
  let h: MgmtHarness;
  let tenantId: string;
  beforeAll(async () => {
    h = await startMgmt();
    tenantId = await h.createTenant('R');
  });
  afterAll(() => h.stop());
  const create = (redirectUris: string[]) =>
    h.admin('POST', `/api/v1/admin/tenants/${tenantId}/applications`, { name: 'app', redirectUris });

  it('refuses http off loopback, userinfo, wildcards, whitespace, control characters, fragments and bare schemes', async () => {
    for (const uri of [
      'http://rp.example/cb',
      'https://user:pass@rp.example/cb',
      'https://user@rp.example/cb',
      'https://*.rp.example/cb',
      'https://rp.example/*',
      'https://rp.example/c b',
      'https://rp.example/cb\t',
      'https://rp.example/\u0001cb',
      'https://rp.example/cb#frag',
      'myapp:/cb',
      'javascript:alert(1)',
      'data:text/html,hi',
    ]) {
      const res = await create([uri]);
      assert.equal(res.status, 400, uri);
      assert.ok(
        !JSON.stringify(await res.json()).includes(JSON.stringify(uri).slice(1, -1)),
        `${uri} echoed`,
      );
    }
  });

  it('accepts https, http on loopback and reverse-domain private-use schemes, stored normalized', async () => {
    const res = await create([
      'https://RP.Example:443/cb',
      'http://127.0.0.1:8400/cb',
      'http://[::1]:8400/cb',
      'http://localhost:3000/callback',
      'com.example.app:/oauth2redirect',
    ]);
    assert.equal(res.status, 201);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    const { appId } = (await res.json()) as { appId: string };
    const app = await h.admin('GET', `/api/v1/admin/tenants/${tenantId}/applications/${appId}`);
    assert.equal(app.headers.get('cache-control'), 'no-store');
    assert.deepEqual(((await app.json()) as { redirectUris: string[] }).redirectUris, [
      'https://rp.example/cb',
      'http://127.0.0.1:8400/cb',
      'http://[::1]:8400/cb',
      'http://localhost:3000/callback',
      'com.example.app:/oauth2redirect',
    ]);
  });

  it('an unknown admin path is a 404 that does not repeat the path, with no-store', async () => {
    const res = await h.admin('GET', '/api/v1/admin/<script>x</script>');
    assert.equal(res.status, 404);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    assert.ok(!(await res.text()).includes('script'));
  });
});
