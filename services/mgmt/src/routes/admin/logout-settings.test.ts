import assert from 'node:assert/strict';
import { beforeAll, describe, it } from '@jest/globals';
import { startedForSuite } from '@sesame/testing/suite';
import { errorOf, startMgmt } from '../../testing/mgmt-harness';

type App = Record<string, unknown> & { appId: string };
describe('admin API: logout settings of an application (outside development)', () => {
  const h = startedForSuite(() => startMgmt());
  let base: string;
  beforeAll(async () => {
    base = `/api/v1/admin/tenants/${await h.createTenant('T')}/applications`;
  });

  it('stores post-logout redirect URIs (normalized), the back-channel logout URI and sid required', async () => {
    const res = await h.admin('POST', base, {
      name: 'Shop',
      redirectUris: ['https://shop.example/cb'],
      postLogoutRedirectUris: ['HTTPS://Shop.Example:443/bye', 'com.example.shop:/bye'],
      backchannelLogoutUri: 'https://shop.example/backchannel-logout',
      backchannelLogoutSessionRequired: true,
    });
    assert.equal(res.status, 201);
    const app = (await res.json()) as App;
    assert.deepEqual(app.postLogoutRedirectUris, ['https://shop.example/bye', 'com.example.shop:/bye']);
    assert.equal(app.backchannelLogoutUri, 'https://shop.example/backchannel-logout');
    assert.equal(app.backchannelLogoutSessionRequired, true);
  });

  it('refuses post-logout redirect URIs with a fragment, a wildcard, plain http or a repeat, naming each field', async () => {
    const res = await h.admin('POST', base, {
      name: 'Bad',
      postLogoutRedirectUris: [
        'https://shop.example/bye#x',
        'https://*.shop.example/bye',
        'http://shop.example/bye',
      ],
    });
    assert.equal(res.status, 400);
    const error = await errorOf(res);
    assert.equal(error.code, 'invalid_request');
    assert.deepEqual(Object.keys(error.fields ?? {}).sort(), [
      'postLogoutRedirectUris.0',
      'postLogoutRedirectUris.1',
      'postLogoutRedirectUris.2',
    ]);
    const repeated = await h.admin('POST', base, {
      name: 'Twice',
      postLogoutRedirectUris: ['https://shop.example/bye', 'https://SHOP.example/bye'],
    });
    assert.equal((await errorOf(repeated)).fields?.postLogoutRedirectUris, 'must not repeat a URI');
  });

  it('refuses a back-channel logout URI that is not https, private, or on loopback (SSRF), at create and update', async () => {
    for (const uri of [
      'http://shop.example/bcl',
      'https://10.0.0.7/bcl',
      'https://169.254.169.254/latest',
      'https://shop.example/bcl#frag',
      'http://127.0.0.1:8099/bcl',
      'http://localhost:8099/bcl',
    ]) {
      const res = await h.admin('POST', base, { name: 'Hook', backchannelLogoutUri: uri });
      assert.equal(res.status, 400, uri);
      assert.ok((await errorOf(res)).fields?.backchannelLogoutUri, uri);
    }
    const app = (await (await h.admin('POST', base, { name: 'Later' })).json()) as App;
    const patched = await h.admin('PATCH', `${base}/${app.appId}`, {
      backchannelLogoutUri: 'http://127.0.0.1:8099/bcl',
    });
    assert.equal(patched.status, 400);
    assert.match((await errorOf(patched)).fields?.backchannelLogoutUri ?? '', /loopback/);
    const stored = await h.admin('GET', `${base}/${app.appId}`);
    assert.equal('backchannelLogoutUri' in ((await stored.json()) as App), false, 'nothing saved');
  });

  it('a change is one update event with its diff; null and [] clear without leaving empty values', async () => {
    const app = (await (await h.admin('POST', base, { name: 'Diff' })).json()) as App;
    const count = h.adminEvents.length;
    const set = await h.admin('PATCH', `${base}/${app.appId}`, {
      postLogoutRedirectUris: ['https://diff.example/bye'],
      backchannelLogoutUri: 'https://diff.example/bcl',
    });
    assert.equal(set.status, 200);
    assert.equal(h.adminEvents.length, count + 1);
    const event = h.adminEvents.at(-1)!;
    assert.equal(event.activityType, 'administrator_update_application');
    assert.deepEqual(JSON.parse(String(event.data?.diff)), {
      postLogoutRedirectUris: { from: null, to: ['https://diff.example/bye'] },
      backchannelLogoutUri: { from: null, to: 'https://diff.example/bcl' },
    });
    const cleared = await h.admin('PATCH', `${base}/${app.appId}`, {
      postLogoutRedirectUris: [],
      backchannelLogoutUri: null,
      backchannelLogoutSessionRequired: false,
    });
    const view = (await cleared.json()) as App;
    assert.equal('postLogoutRedirectUris' in view, false);
    assert.equal('backchannelLogoutUri' in view, false);
    assert.deepEqual(JSON.parse(String(h.adminEvents.at(-1)?.data?.diff)), {
      postLogoutRedirectUris: { from: ['https://diff.example/bye'], to: null },
      backchannelLogoutUri: { from: 'https://diff.example/bcl', to: null },
    });
    const again = h.adminEvents.length;
    await h.admin('PATCH', `${base}/${app.appId}`, { postLogoutRedirectUris: [] });
    assert.equal(h.adminEvents.length, again, 'no change, no event');
  });
});

describe('admin API: a loopback back-channel logout URI where loopback notifications are allowed', () => {
  const h = startedForSuite(() => startMgmt({ SESAME_ALLOW_LOOPBACK_NOTIFICATIONS: 'true' }));

  it('is accepted (development and the tests), while a private address still is not', async () => {
    const base = `/api/v1/admin/tenants/${await h.createTenant('Dev')}/applications`;
    const ok = await h.admin('POST', base, {
      name: 'Local',
      backchannelLogoutUri: 'http://127.0.0.1:8099/bcl',
    });
    assert.equal(ok.status, 201);
    const bad = await h.admin('POST', base, {
      name: 'Private',
      backchannelLogoutUri: 'https://192.168.1.5/bcl',
    });
    assert.equal(bad.status, 400);
  });
});
