import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { DEFAULT_REFRESH_ABSOLUTE_LIFETIME_S, DEFAULT_REFRESH_IDLE_LIFETIME_S } from '@sesame/oauth';
import { startedForSuite } from '@sesame/testing/suite';
import { startSignedInConsole } from '../testing/console-fixture';
import { ConsoleBrowser } from '../testing/fake-provider';

const csrf = ConsoleBrowser.csrfOf;
const readonlyValue = (html: string, id: string) =>
  new RegExp(`id="${id}" type="text" readonly value="([^"]*)"`).exec(html)?.[1];

describe('console: New application asks the kind first; each kind sets its defaults', () => {
  const acme = startedForSuite(() => startSignedInConsole({ owner: 'owner', support: 'support' }));
  const create = async (form: Record<string, string>) => {
    const page = await (await acme.owner.get('/console/applications?new')).text();
    return acme.owner.post('/console/applications', { csrf: csrf(page), ...form });
  };
  const appNamed = async (name: string) =>
    (await acme.h.dir.applications.list(acme.tenantId)).find((a) => a.name === name);

  it('the form is a radio group "Kind of application" with the four kinds, Web application checked', async () => {
    const html = await (await acme.owner.get('/console/applications?new')).text();
    assert.match(
      html,
      /<fieldset role="radiogroup" aria-labelledby="app-kind-legend" class="kinds">\n<legend id="app-kind-legend">Kind of application<\/legend>/,
    );
    const labels = [
      ...html.matchAll(/<input type="radio" id="kind-(\w+)"[^>]*>\n<label for="kind-\1">([^<]+)<\/label>/g),
    ];
    assert.deepEqual(
      labels.map((m) => m[2]),
      ['Web application', 'Single-page application', 'Native or mobile application', 'Machine to machine'],
    );
    assert.match(html, /id="kind-web" name="kind" value="web" checked/);
  });

  it('Web application: confidential with a secret shown once, refresh tokens with the platform lifetimes; its page opens', async () => {
    const res = await create({ kind: 'web', name: 'Web kind', redirectUris: 'https://web.test/cb' });
    assert.equal(res.status, 201);
    const html = await res.text();
    assert.match(html, /<h1>Web kind<\/h1>/);
    assert.match(html, /<h2 id="connect">Connect your app<\/h2>/);
    const secret = readonlyValue(html, 'client-secret');
    assert.ok(secret);
    const app = await appNamed('Web kind');
    assert.equal(app?.clientType, 'confidential');
    assert.deepEqual(app?.refreshTokens, {
      enabled: true,
      absoluteLifetimeS: DEFAULT_REFRESH_ABSOLUTE_LIFETIME_S,
      idleLifetimeS: DEFAULT_REFRESH_IDLE_LIFETIME_S,
    });
    const { client } = await acme.h.directoryClient.authenticateClient({
      clientId: app!.clientId,
      clientSecret: secret,
    });
    assert.equal(client?.clientId, app!.clientId);
  });

  it('Single-page application: public (no secret, PKCE), refresh tokens for 1 day, 1 hour idle', async () => {
    const res = await create({ kind: 'spa', name: 'SPA kind', redirectUris: 'https://spa.test/cb' });
    assert.equal(res.status, 201);
    const html = await res.text();
    assert.equal(readonlyValue(html, 'client-secret'), undefined);
    assert.doesNotMatch(html, /Client secret<\/label>/);
    const app = await appNamed('SPA kind');
    assert.equal(app?.clientType, 'public');
    assert.equal(app?.clientSecretHash, undefined);
    assert.deepEqual(app?.refreshTokens, { enabled: true, absoluteLifetimeS: 86_400, idleLifetimeS: 3600 });
    assert.match(html, /Single-page application: signs people in from the browser/);
  });

  it('a custom-scheme redirect is refused for web and single-page (field marked, nothing created) and accepted for native', async () => {
    for (const kind of ['web', 'spa']) {
      const res = await create({ kind, name: `Scheme ${kind}`, redirectUris: 'com.example.app:/callback' });
      assert.equal(res.status, 400, kind);
      assert.match(
        await res.text(),
        /<p id="app-redirects-error" class="field-error">Redirect URIs: com\.example\.app:\/callback is a custom scheme: only a Native or mobile application may use one/,
      );
      assert.equal(await appNamed(`Scheme ${kind}`), undefined);
    }
    const res = await create({
      kind: 'native',
      name: 'Native kind',
      redirectUris: 'com.example.app:/callback\nhttp://127.0.0.1:8765/cb',
    });
    assert.equal(res.status, 201);
    const app = await appNamed('Native kind');
    assert.equal(app?.clientType, 'public');
    assert.deepEqual(app?.redirectUris, ['com.example.app:/callback', 'http://127.0.0.1:8765/cb']);
    assert.equal(app?.refreshTokens?.enabled, true);
    assert.match(
      await res.text(),
      /Native or mobile application: signs people in through the system browser/,
    );
  });

  it('Machine to machine makes API credentials (shown once), not an application; a name is not needed', async () => {
    const apps = (await acme.h.dir.applications.list(acme.tenantId)).length;
    const creds = (await acme.h.dir.credentials.list(acme.tenantId)).length;
    const res = await create({ kind: 'm2m', name: '', redirectUris: '' });
    assert.equal(res.status, 201);
    const html = await res.text();
    const credentialsId = readonlyValue(html, 'credentials-id');
    assert.ok(credentialsId && readonlyValue(html, 'api-secret'));
    assert.equal((await acme.h.dir.applications.list(acme.tenantId)).length, apps);
    assert.equal((await acme.h.dir.credentials.list(acme.tenantId)).length, creds + 1);
    assert.equal(acme.h.adminEvents.at(-1)?.activityType, 'administrator_create_api_credential');
  });

  it('a missing name is refused beside the field, with the kind and redirect URIs kept', async () => {
    const res = await create({ kind: 'native', name: ' ', redirectUris: 'com.example.app:/cb' });
    assert.equal(res.status, 400);
    const html = await res.text();
    assert.match(html, /id="kind-native" name="kind" value="native" checked/);
    assert.match(html, /aria-invalid="true" aria-describedby="app-name-error" autofocus>/);
    assert.match(html, /<p id="app-name-error" class="field-error">Name: /);
    assert.match(html, />com\.example\.app:\/cb<\/textarea>/);
  });

  it('Support cannot create any kind (403, nothing written)', async () => {
    const tokens = await (await acme.support.get('/console/tokens')).text();
    const before = (await acme.h.dir.credentials.list(acme.tenantId)).length;
    const res = await acme.support.post('/console/applications', { csrf: csrf(tokens), kind: 'm2m' });
    assert.equal(res.status, 403);
    assert.equal((await acme.h.dir.credentials.list(acme.tenantId)).length, before);
  });
});
