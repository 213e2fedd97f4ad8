// Over 300 lines: each of the four controls saved and read back through the admin API, each refusal the API
// or the page makes (seven cases) checked beside its field with the app unchanged, and the public-client,
// older-form, German, role and CSRF rules, against one running console.
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import {
  type ApplicationConsole,
  signedIn,
  startApplicationConsole,
  stopConsole,
} from '../testing/console-fixture';
import { ConsoleBrowser } from '../testing/fake-provider';

const csrf = ConsoleBrowser.csrfOf;

/** A fresh P-256 key as a JWK: its public half and the private one (with d). */
function ecJwk(kid: string) {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const full = { ...privateKey.export({ format: 'jwk' }), kid, use: 'sig', alg: 'ES256' };
  const { d: _d, ...pub } = full;
  return { pub, full };
}

/** An application's settings as the admin API reads them back. */
type AppView = Record<string, unknown>;

describe('console: an application’s client authentication method, public keys, PAR and DPoP (issue 41)', () => {
  let c: ApplicationConsole;
  const A = () => `/console/applications/${c.appId}`;
  const read = async (): Promise<AppView> =>
    (
      await c.h.admin('GET', `/api/v1/admin/tenants/${c.tenantId}/applications/${c.appId}`)
    ).json() as Promise<AppView>;
  const page = async () => (await c.admin.get(A())).text();
  /** The settings form as the page posts it (Shop's values), with `over` changed. */
  const form = (html: string, over: Record<string, string> = {}) => ({
    csrf: csrf(html),
    refreshFields: '1',
    clientAuthFields: '1',
    name: 'Shop',
    redirectUris: 'https://shop.test/cb',
    allowedScopes: 'openid email phone svc_network_info',
    cibaMode: 'poll',
    cibaPendingAnswer: 'spec',
    tokenEndpointAuthMethod: 'client_secret_basic',
    jwks: '',
    jwksUri: '',
    ...over,
  });
  const save = async (over: Record<string, string>) => c.admin.post(A(), form(await page(), over));

  beforeAll(async () => {
    c = await startApplicationConsole();
  });
  afterAll(() => stopConsole(c));

  it('Advanced has a Client authentication section: the method (client_secret_basic by default), the JWK Set, its URL; PAR and DPoP checkboxes', async () => {
    const html = await page();
    assert.match(html, /<input type="hidden" name="clientAuthFields" value="1">/);
    assert.match(
      html,
      /<h3>Client authentication<\/h3>\n<label for="app-auth-method">Client authentication method<\/label>/,
    );
    assert.match(
      html,
      /<select id="app-auth-method" name="tokenEndpointAuthMethod" aria-describedby="app-auth-method-hint"><option value="client_secret_basic" selected>client_secret_basic \(default\)<\/option><option value="client_secret_post">client_secret_post<\/option><option value="private_key_jwt">private_key_jwt<\/option><option value="tls_client_auth">tls_client_auth<\/option><option value="self_signed_tls_client_auth">self_signed_tls_client_auth<\/option><\/select>/,
    );
    assert.match(
      html,
      /<label for="app-jwks">Public keys \(JWK Set\)<\/label>\n<textarea id="app-jwks" name="jwks" rows="6" spellcheck="false" aria-describedby="app-jwks-hint"><\/textarea>/,
    );
    assert.match(
      html,
      /<label for="app-jwks-uri">JWK Set URL<\/label>\n<input id="app-jwks-uri" name="jwksUri" type="url" value="" aria-describedby="app-jwks-uri-hint">/,
    );
    assert.match(
      html,
      /<input id="app-par" name="requirePushedAuthorizationRequests" type="checkbox" value="on" aria-describedby="app-par-hint"><label for="app-par">Require pushed authorization requests<\/label>/,
    );
    assert.match(html, /<label for="app-dpop">Require DPoP<\/label>/);
  });

  it('saving the untouched page changes nothing (the default method stays absent)', async () => {
    const events = c.h.adminEvents.length;
    const before = await read();
    assert.equal((await save({})).status, 303);
    assert.deepEqual(await read(), before);
    assert.equal(c.h.adminEvents.length, events, 'no administrator_update_application');
    assert.equal(before.tokenEndpointAuthMethod, undefined);
  });

  it('private_key_jwt with a public JWK Set, Require PAR and Require DPoP: saved, read back, shown', async () => {
    const { pub } = ecJwk('rp-key-1');
    const res = await save({
      tokenEndpointAuthMethod: 'private_key_jwt',
      jwks: JSON.stringify({ keys: [pub] }),
      requirePushedAuthorizationRequests: 'on',
      dpopBoundAccessTokens: 'on',
    });
    assert.equal(res.status, 303);
    const app = await read();
    assert.equal(app.tokenEndpointAuthMethod, 'private_key_jwt');
    assert.deepEqual(app.jwks, { keys: [pub] });
    assert.equal(app.jwksUri, undefined);
    assert.equal(app.requirePushedAuthorizationRequests, true);
    assert.equal(app.dpopBoundAccessTokens, true);
    assert.deepEqual(Object.keys(JSON.parse(String(c.h.adminEvents.at(-1)?.data?.diff))), [
      'tokenEndpointAuthMethod',
      'jwks',
      'requirePushedAuthorizationRequests',
      'dpopBoundAccessTokens',
    ]);
    const html = await page();
    assert.match(html, /<option value="private_key_jwt" selected>private_key_jwt<\/option>/);
    assert.match(html, /<option value="client_secret_basic">client_secret_basic \(default\)<\/option>/);
    const shown = /<textarea id="app-jwks"[^>]*>([^<]*)<\/textarea>/.exec(html)?.[1] ?? '';
    assert.deepEqual(JSON.parse(shown.replaceAll('&quot;', '"')), { keys: [pub] });
    assert.match(
      html,
      /id="app-par" name="requirePushedAuthorizationRequests" type="checkbox" value="on" checked/,
    );
    assert.match(html, /id="app-dpop" name="dpopBoundAccessTokens" type="checkbox" value="on" checked/);
    // The page posted back as shown keeps all of it, with no new event.
    const events = c.h.adminEvents.length;
    const again = await c.admin.post(A(), {
      ...form(html, {
        tokenEndpointAuthMethod: 'private_key_jwt',
        jwks: shown.replaceAll('&quot;', '"'),
        requirePushedAuthorizationRequests: 'on',
        dpopBoundAccessTokens: 'on',
      }),
    });
    assert.equal(again.status, 303);
    assert.deepEqual(await read(), app);
    assert.equal(c.h.adminEvents.length, events);
  });

  describe('bad input is marked beside its field, the typed text kept, Advanced open; the app is unchanged', () => {
    const cases: [string, Record<string, string>, RegExp][] = [
      [
        'a JWK Set that is not JSON',
        { tokenEndpointAuthMethod: 'private_key_jwt', jwks: '{"keys": [' },
        /<p id="app-jwks-error" class="field-error">Public keys \(JWK Set\): is not valid JSON: paste a JWK Set such as \{&quot;keys&quot;: \[ … \]\}<\/p>/,
      ],
      [
        'a JWK Set with a private key (d)',
        { tokenEndpointAuthMethod: 'private_key_jwt', jwks: JSON.stringify({ keys: [ecJwk('k').full] }) },
        /<p id="app-jwks-error" class="field-error">Public keys \(JWK Set\): must be a public key \(has d\)<\/p>/,
      ],
      [
        'JSON that is no JWK Set',
        { tokenEndpointAuthMethod: 'private_key_jwt', jwks: '["not", "a", "set"]' },
        /<p id="app-jwks-error" class="field-error">Public keys \(JWK Set\): must be object<\/p>/,
      ],
      [
        'a JWK Set URL in plain http',
        { tokenEndpointAuthMethod: 'private_key_jwt', jwksUri: 'http://rp.example/jwks.json' },
        /<p id="app-jwks-uri-error" class="field-error">JWK Set URL: must be an https URL \(http only on localhost\), without a fragment<\/p>/,
      ],
      [
        'private_key_jwt with no keys',
        { tokenEndpointAuthMethod: 'private_key_jwt' },
        /<p id="app-jwks-error" class="field-error">Public keys \(JWK Set\): private_key_jwt needs jwks or jwksUri<\/p>/,
      ],
      [
        'both a JWK Set and its URL',
        {
          tokenEndpointAuthMethod: 'private_key_jwt',
          jwks: JSON.stringify({ keys: [ecJwk('k').pub] }),
          jwksUri: 'https://rp.example/jwks.json',
        },
        /<p id="app-jwks-uri-error" class="field-error">JWK Set URL: give jwks or jwksUri, not both<\/p>/,
      ],
      [
        'none for a confidential client (a forged choice)',
        { tokenEndpointAuthMethod: 'none' },
        /<p id="app-auth-method-error" class="field-error">Client authentication method: must be one of client_secret_basic, client_secret_post, private_key_jwt, tls_client_auth, self_signed_tls_client_auth<\/p>/,
      ],
    ];
    it.each(cases)('%s', async (_what, over, message) => {
      const before = await read();
      const events = c.h.adminEvents.length;
      const res = await save(over);
      assert.equal(res.status, 400);
      const html = await res.text();
      assert.match(html, message);
      assert.match(html, /<details class="advanced" open>/);
      assert.match(html, /<div class="notice error-summary" role="alert">/);
      const id = /<p id="(app-[\w-]+)-error"/.exec(html)![1]!;
      assert.match(
        html,
        new RegExp(
          `id="${id}" name="\\w+"[^>]* aria-invalid="true" aria-describedby="${id}-error ${id}-hint" autofocus`,
        ),
      );
      if (over.jwks) {
        const typed = over.jwks.replaceAll('"', '&quot;');
        assert.ok(html.includes(`>${typed}</textarea>`), 'the typed JWK Set is shown again');
      }
      assert.deepEqual(await read(), before);
      assert.equal(c.h.adminEvents.length, events);
    });
  });

  it('a JWK Set URL instead of the keys; back to the secret clears method, keys and PAR', async () => {
    assert.equal(
      (
        await save({
          tokenEndpointAuthMethod: 'private_key_jwt',
          jwksUri: 'https://rp.example/jwks.json',
          requirePushedAuthorizationRequests: 'on',
        })
      ).status,
      303,
    );
    let app = await read();
    assert.deepEqual(
      [app.tokenEndpointAuthMethod, app.jwks, app.jwksUri, app.requirePushedAuthorizationRequests],
      ['private_key_jwt', undefined, 'https://rp.example/jwks.json', true],
    );
    assert.match(
      await page(),
      /id="app-jwks-uri" name="jwksUri" type="url" value="https:\/\/rp\.example\/jwks\.json"/,
    );
    assert.equal((await save({ tokenEndpointAuthMethod: 'client_secret_post' })).status, 303);
    app = await read();
    assert.deepEqual(
      [
        app.tokenEndpointAuthMethod,
        app.jwksUri,
        app.requirePushedAuthorizationRequests,
        app.dpopBoundAccessTokens,
      ],
      ['client_secret_post', undefined, undefined, undefined],
    );
    assert.match(await page(), /<option value="client_secret_post" selected>/);
    assert.equal((await save({ tokenEndpointAuthMethod: 'client_secret_basic' })).status, 303);
    assert.equal((await read()).tokenEndpointAuthMethod, undefined, 'the default is stored as absent');
  });

  it('a form without clientAuthFields (a script, an older page) keeps the method, keys and PAR', async () => {
    const { pub } = ecJwk('rp-key-2');
    await save({
      tokenEndpointAuthMethod: 'private_key_jwt',
      jwks: JSON.stringify({ keys: [pub] }),
      requirePushedAuthorizationRequests: 'on',
    });
    const before = await read();
    const {
      clientAuthFields: _,
      tokenEndpointAuthMethod: _m,
      jwks: _j,
      jwksUri: _u,
      ...older
    } = form(await page());
    assert.equal((await c.admin.post(A(), older)).status, 303);
    assert.deepEqual(await read(), before);
    // Back to the secret for the tests after this one.
    assert.equal((await save({})).status, 303);
    assert.equal((await read()).jwks, undefined);
  });

  it('speaks German: the section, labels and the JSON refusal are translated', async () => {
    const de = { cookie: `sesame-console=${c.admin.cookie}`, 'accept-language': 'de' };
    const html = await (await fetch(`${c.h.url}${A()}`, { headers: de })).text();
    assert.match(html, /<h3>Client-Authentifizierung<\/h3>/);
    assert.match(html, /<label for="app-auth-method">Methode der Client-Authentifizierung<\/label>/);
    assert.match(
      html,
      /<option value="client_secret_basic" selected>client_secret_basic \(Standard\)<\/option>/,
    );
    assert.match(html, /<label for="app-jwks">Öffentliche Schlüssel \(JWK Set\)<\/label>/);
    assert.match(html, /<label for="app-jwks-uri">URL des JWK Sets<\/label>/);
    assert.match(html, /<label for="app-par">Pushed Authorization Requests verlangen<\/label>/);
    assert.match(html, /<label for="app-dpop">DPoP verlangen<\/label>/);
    const res = await fetch(`${c.h.url}${A()}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { ...de, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(
        form(html, { tokenEndpointAuthMethod: 'private_key_jwt', jwks: 'nope' }),
      ).toString(),
    });
    assert.equal(res.status, 400);
    assert.match(
      await res.text(),
      /<p id="app-jwks-error" class="field-error">Öffentliche Schlüssel \(JWK Set\): ist kein gültiges JSON: ein JWK Set wie \{&quot;keys&quot;: \[ … \]\} einfügen<\/p>/,
    );
  });

  it('a public client is offered none alone; a forged private_key_jwt is refused beside the select', async () => {
    const created = (await (
      await c.h.admin('POST', `/api/v1/admin/tenants/${c.tenantId}/applications`, {
        name: 'Mobile',
        redirectUris: ['com.example.app:/cb'],
        public: true,
      })
    ).json()) as { appId: string };
    const P = `/console/applications/${created.appId}`;
    const html = await (await c.admin.get(P)).text();
    assert.match(
      html,
      /<select id="app-auth-method" name="tokenEndpointAuthMethod" aria-describedby="app-auth-method-hint"><option value="none" selected>none \(public client: no secret, PKCE\)<\/option><\/select>/,
    );
    const base = {
      ...form(html),
      name: 'Mobile',
      redirectUris: 'com.example.app:/cb',
      tokenEndpointAuthMethod: 'none',
    };
    assert.equal((await c.admin.post(P, base)).status, 303);
    const refused = await c.admin.post(P, {
      ...base,
      tokenEndpointAuthMethod: 'private_key_jwt',
      jwksUri: 'https://rp.example/jwks.json',
    });
    assert.equal(refused.status, 400);
    assert.match(
      await refused.text(),
      /<p id="app-auth-method-error" class="field-error">Client authentication method: a public client cannot use private_key_jwt<\/p>/,
    );
    const app = await c.h.dir.applications.get(c.tenantId, created.appId);
    assert.deepEqual([app?.tokenEndpointAuthMethod, app?.jwksUri], [undefined, undefined]);
  });

  it('Support may neither see nor change them; a forged CSRF token changes nothing', async () => {
    await c.addAdministrator('support@acme.test', 'support', 2);
    const support = await signedIn(c, 'support@acme.test');
    const html = await page();
    const before = await read();
    assert.equal((await support.get(A())).status, 403);
    const byReader = await support.post(A(), {
      ...form(html, { tokenEndpointAuthMethod: 'private_key_jwt', jwksUri: 'https://rp.example/jwks.json' }),
      csrf: csrf(await (await support.get('/console/users')).text()),
    });
    assert.equal(byReader.status, 403);
    const forged = await c.admin.post(A(), {
      ...form(html, { tokenEndpointAuthMethod: 'private_key_jwt', jwksUri: 'https://rp.example/jwks.json' }),
      csrf: 'forged',
    });
    assert.equal(forged.status, 403);
    assert.deepEqual(await read(), before);
  });
});
