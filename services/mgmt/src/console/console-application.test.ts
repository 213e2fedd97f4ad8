import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { startedForSuite } from '@sesame/testing/suite';
import { startApplicationConsole, startConsole, stopConsole } from '../testing/console-fixture';
import { ConsoleBrowser, type FakeProvider } from '../testing/fake-provider';
import type { MgmtHarness } from '../testing/mgmt-harness';

const csrf = ConsoleBrowser.csrfOf;

describe('console page: one application (settings, secret rotation, removal)', () => {
  let h: MgmtHarness;
  let provider: FakeProvider;
  let tenantId: string;
  let appId: string;
  let clientId: string;
  let firstSecret: string;
  let admin: ConsoleBrowser;
  beforeAll(async () => {
    ({ h, provider, tenantId, appId, clientId, firstSecret, admin } = await startApplicationConsole());
  });
  afterAll(() => stopConsole({ h, provider }));

  it('the list links each application; its page shows the Client ID and every setting', async () => {
    const list = await (await admin.get('/console/applications')).text();
    assert.match(list, new RegExp(`<a href="/console/applications/${appId}">Shop</a>`));
    const page = await (await admin.get(`/console/applications/${appId}`)).text();
    assert.match(page, new RegExp(`id="client-id" type="text" readonly value="${clientId}"`));
    for (const label of [
      'Redirect URIs',
      'Registration redirect URI',
      'Registration link validity \\(seconds\\)',
      'Aux-link prefix',
      'Allowed scopes',
      'CIBA mode',
      'CIBA notification endpoint',
    ]) {
      assert.match(page, new RegExp(`>${label}</label>`), label);
    }
  });

  it('saving settings publishes administrator_update_application with the diff', async () => {
    const page = await (await admin.get(`/console/applications/${appId}`)).text();
    const res = await admin.post(`/console/applications/${appId}`, {
      csrf: csrf(page),
      name: 'Shop',
      redirectUris: 'https://shop.test/cb\nhttps://shop.test/cb2',
      registrationRedirectUri: 'https://shop.test/registered',
      registrationLinkExpiresIn: '',
      auxLinkPrefix: '',
      allowedScopes: 'openid email',
      cibaMode: 'poll',
      cibaNotificationEndpoint: '',
    });
    assert.equal(res.status, 303);
    const app = await h.dir.applications.get(tenantId, appId);
    assert.deepEqual(app?.redirectUris, ['https://shop.test/cb', 'https://shop.test/cb2']);
    assert.equal(app?.registrationRedirectUri, 'https://shop.test/registered');
    assert.deepEqual(app?.allowedScopes, ['openid', 'email']);
    const event = h.adminEvents.at(-1)!;
    assert.equal(event.activityType, 'administrator_update_application');
    assert.equal(event.adminEmail, 'admin@acme.test');
    assert.deepEqual(Object.keys(JSON.parse(String(event.data?.diff))).sort(), [
      'allowedScopes',
      'redirectUris',
      'registrationRedirectUri',
    ]);
  });

  it('sets the logout settings (post-logout redirect URIs, back-channel logout URI); a loopback one is refused', async () => {
    const page = await (await admin.get(`/console/applications/${appId}`)).text();
    assert.match(page, />Post-logout redirect URIs<\/label>/);
    assert.match(page, />Back-channel logout URI<\/label>/);
    const form = {
      csrf: csrf(page),
      name: 'Shop',
      redirectUris: 'https://shop.test/cb',
      allowedScopes: 'openid email',
      cibaMode: 'poll',
      postLogoutRedirectUris: 'https://shop.test/signed-out\nhttps://shop.test/bye',
      backchannelLogoutUri: 'https://shop.test/backchannel-logout',
    };
    assert.equal((await admin.post(`/console/applications/${appId}`, form)).status, 303);
    const app = await h.dir.applications.get(tenantId, appId);
    assert.deepEqual(app?.postLogoutRedirectUris, ['https://shop.test/signed-out', 'https://shop.test/bye']);
    assert.equal(app?.backchannelLogoutUri, 'https://shop.test/backchannel-logout');
    const shown = await (await admin.get(`/console/applications/${appId}`)).text();
    assert.match(shown, /value="https:\/\/shop\.test\/backchannel-logout"/);
    const refused = await admin.post(`/console/applications/${appId}`, {
      ...form,
      csrf: csrf(shown),
      backchannelLogoutUri: 'http://127.0.0.1:9/backchannel-logout',
    });
    assert.equal(refused.status, 400);
    assert.equal(
      (await h.dir.applications.get(tenantId, appId))?.backchannelLogoutUri,
      'https://shop.test/backchannel-logout',
    );
  });

  it('rotating the secret shows the new one once; it authenticates and the old one does not', async () => {
    const page = await (await admin.get(`/console/applications/${appId}`)).text();
    const res = await admin.post(`/console/applications/${appId}/secret`, {
      confirm: 'yes',
      csrf: csrf(page),
    });
    assert.equal(res.status, 200);
    const secret = /id="client-secret" type="text" readonly value="([^"]+)"/.exec(await res.text())![1]!;
    const { client } = await h.directoryClient.authenticateClient({ clientId, clientSecret: secret });
    assert.equal(client?.clientId, clientId);
    await assert.rejects(h.directoryClient.authenticateClient({ clientId, clientSecret: firstSecret }));
  });

  it('removal needs the name typed: a wrong one is 400 and removes nothing; the right one removes it', async () => {
    const page = await (await admin.get(`/console/applications/${appId}`)).text();
    const wrong = await admin.post(`/console/applications/${appId}/remove`, {
      confirm: 'yes',
      csrf: csrf(page),
      confirmName: 'shop',
    });
    assert.equal(wrong.status, 400);
    assert.ok(await h.dir.applications.get(tenantId, appId));
    const right = await admin.post(`/console/applications/${appId}/remove`, {
      confirm: 'yes',
      csrf: csrf(page),
      confirmName: 'Shop',
    });
    assert.equal(right.status, 303);
    assert.equal(await h.dir.applications.get(tenantId, appId), undefined);
    assert.deepEqual(
      [h.adminEvents.at(-1)?.activityType, h.adminEvents.at(-1)?.data],
      ['administrator_remove_application', { appId, appName: 'Shop' }],
    );
    assert.equal((await admin.get(`/console/applications/${appId}`)).status, 404);
  });
});

describe('console: changing an administrator’s role', () => {
  const c = startedForSuite(() =>
    startConsole([
      ['owner@acme.test', 'owner'],
      ['helper@acme.test', 'support'],
    ]),
  );

  it('an Owner changes a role (event with the diff); the last Owner cannot be demoted; it needs a recent sign-in', async () => {
    const owner = new ConsoleBrowser(c.h.url, c.provider);
    await owner.signIn('owner@acme.test');
    const list = await (await owner.get('/console/administrators')).text();
    assert.match(list, /<a href="\/console\/administrators\/helper%40acme\.test\/role">Change role<\/a>/);
    assert.equal(
      (list.match(/<label[^>]*>Role<\/label>/g) ?? []).length,
      1,
      'one Role field: the invitation’s',
    );
    const page = await (await owner.get('/console/administrators/helper%40acme.test/role')).text();
    assert.match(page, /<label for="admin-role">Role<\/label>/);
    const res = await owner.post('/console/administrators/helper%40acme.test/role', {
      csrf: csrf(page),
      role: 'administrator',
    });
    assert.equal(res.status, 303);
    assert.equal((await c.h.admins.accounts.get(c.tenantId, 'helper@acme.test'))?.role, 'administrator');
    assert.deepEqual(c.h.adminEvents.at(-1)?.data, {
      email: 'helper@acme.test',
      diff: JSON.stringify({ role: { from: 'support', to: 'administrator' } }),
    });
    const last = await owner.post('/console/administrators/owner%40acme.test/role', {
      csrf: csrf(page),
      role: 'support',
    });
    assert.equal(last.status, 409);
    assert.equal((await c.h.admins.accounts.get(c.tenantId, 'owner@acme.test'))?.role, 'owner');
    c.h.clock.t += 11 * 60_000;
    try {
      const stale = await owner.post('/console/administrators/helper%40acme.test/role', {
        csrf: csrf(page),
        role: 'support',
      });
      assert.equal(stale.status, 403);
      assert.equal((await c.h.admins.accounts.get(c.tenantId, 'helper@acme.test'))?.role, 'administrator');
    } finally {
      c.h.clock.t -= 11 * 60_000;
    }
  });
});
