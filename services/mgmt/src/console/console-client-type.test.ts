import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { sha256 } from '@sesame/platform';
import { startedForSuite } from '@sesame/testing/suite';
import { startApplicationConsole } from '../testing/console-fixture';
import { ConsoleBrowser } from '../testing/fake-provider';

const csrf = ConsoleBrowser.csrfOf;

describe('console page: switching an application between confidential and public', () => {
  const shop = startedForSuite(startApplicationConsole);
  /** The application's console page, as the administrator sees it. */
  const appPage = async () => (await shop.admin.get(`/console/applications/${shop.appId}`)).text();
  /** The client type form, posted by `browser` (the administrator unless given). */
  const postClientType = (form: Record<string, string>, browser = shop.admin) =>
    browser.post(`/console/applications/${shop.appId}/client-type`, { confirm: 'yes', ...form });

  it('the page offers the client type with the current one selected', async () => {
    const page = await appPage();
    assert.match(page, /<label for="app-client-type">Client type<\/label>/);
    assert.match(
      page,
      /<option value="confidential" selected>Confidential \(has a client secret\)<\/option>/,
    );
    assert.match(page, /<button type="submit" class="secondary">Change client type<\/button>/);
  });

  it('making it public removes the secret at once and publishes the diff under the administrator', async () => {
    const page = await appPage();
    const res = await postClientType({ csrf: csrf(page), clientType: 'public' });
    assert.equal(res.status, 303);
    const stored = await shop.h.dir.applications.get(shop.tenantId, shop.appId);
    assert.deepEqual([stored?.clientType, stored?.clientSecretHash], ['public', undefined]);
    await assert.rejects(
      shop.h.directoryClient.authenticateClient({ clientId: shop.clientId, clientSecret: shop.firstSecret }),
    );
    const event = shop.h.adminEvents.at(-1)!;
    assert.deepEqual(
      [event.activityType, event.adminEmail, JSON.parse(String(event.data?.diff)).public],
      ['administrator_update_application', 'admin@acme.test', { from: false, to: true }],
    );
    const after = await appPage();
    assert.match(after, /<option value="public" selected>/);
    assert.doesNotMatch(after, /Rotate client secret/);
  });

  it('making it confidential shows the new secret once; it authenticates', async () => {
    const page = await appPage();
    const res = await postClientType({ csrf: csrf(page), clientType: 'confidential' });
    assert.equal(res.status, 200);
    const secret = /id="client-secret" type="text" readonly value="([^"]+)"/.exec(await res.text())![1]!;
    assert.equal(
      (await shop.h.dir.applications.get(shop.tenantId, shop.appId))?.clientSecretHash,
      sha256(secret),
    );
    const { client } = await shop.h.directoryClient.authenticateClient({
      clientId: shop.clientId,
      clientSecret: secret,
    });
    assert.equal(client?.clientId, shop.clientId);
    const again = await appPage();
    assert.doesNotMatch(again, /id="client-secret"/);
  });

  it('refuses an unknown type (400), a missing CSRF token (403) and a stale sign-in (403): nothing changes', async () => {
    const page = await appPage();
    const events = shop.h.adminEvents.length;
    const bad = await postClientType({ csrf: csrf(page), clientType: 'secret' });
    assert.equal(bad.status, 400);
    const noCsrf = await postClientType({ clientType: 'public' });
    assert.equal(noCsrf.status, 403);
    assert.match(await noCsrf.text(), /This form expired/);
    shop.h.clock.t += 11 * 60_000;
    try {
      const stale = await postClientType({ csrf: csrf(page), clientType: 'public' });
      assert.equal(stale.status, 403);
    } finally {
      shop.h.clock.t -= 11 * 60_000;
    }
    assert.equal((await shop.h.dir.applications.get(shop.tenantId, shop.appId))?.clientType, 'confidential');
    assert.equal(shop.h.adminEvents.length, events);
  });

  it('a Support administrator gets 403 on a forged POST; nothing changes', async () => {
    await shop.addAdministrator('help@acme.test', 'support', 2);
    const support = new ConsoleBrowser(shop.h.url, shop.provider);
    await support.signIn('help@acme.test');
    const tokens = await (await support.get('/console/tokens')).text();
    const events = shop.h.adminEvents.length;
    const res = await postClientType({ csrf: csrf(tokens), clientType: 'public' }, support);
    assert.equal(res.status, 403);
    assert.match(await res.text(), /Your role does not allow this\./);
    assert.equal((await shop.h.dir.applications.get(shop.tenantId, shop.appId))?.clientType, 'confidential');
    assert.equal(shop.h.adminEvents.length, events);
  });
});
