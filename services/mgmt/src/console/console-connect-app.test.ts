import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { type ApplicationConsole, startApplicationConsole, stopConsole } from '../testing/console-fixture';
import { ConsoleBrowser } from '../testing/fake-provider';
import { SECRET_PLACEHOLDER, snippetsOf } from './connect-app';
import { COPY_JS_NAME } from './copy-script';

const csrf = ConsoleBrowser.csrfOf;
const htmlDecode = (s: string) =>
  s
    .replaceAll('&quot;', '"')
    .replaceAll('&#x27;', "'")
    .replaceAll('&#x3D;', '=')
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&#x60;', '`')
    .replaceAll('&amp;', '&');
const snippet = (html: string, id: string) =>
  htmlDecode(
    new RegExp(`<pre id="snippet-${id}"[^>]*><code>([\\s\\S]*?)</code></pre>`).exec(html)?.[1] ?? '',
  );
/** The settings form as the page posts it, with `over` changed. */
const settingsForm = (page: string, over: Record<string, string> = {}) => ({
  csrf: csrf(page),
  refreshFields: '1',
  name: 'Shop',
  redirectUris: 'https://shop.test/cb',
  postLogoutRedirectUris: '',
  refreshAbsoluteLifetimeS: '',
  refreshIdleLifetimeS: '',
  registrationLinkExpiresIn: '',
  registrationRedirectUri: '',
  auxLinkPrefix: '',
  allowedScopes: 'openid email phone svc_network_info',
  backchannelLogoutUri: '',
  cibaMode: 'poll',
  cibaNotificationEndpoint: '',
  cibaPendingAnswer: 'spec',
  cibaExpiresIn: '',
  ...over,
});

describe('console: Connect your app and the Advanced settings of an application', () => {
  let c: ApplicationConsole;
  let page: string;
  beforeAll(async () => {
    c = await startApplicationConsole();
    page = await (await c.admin.get(`/console/applications/${c.appId}`)).text();
  });
  afterAll(() => stopConsole(c));
  const A = () => `/console/applications/${c.appId}`;

  it('shows Issuer, Discovery URL and Client ID, each with a Copy button named after it; no secret after creation', () => {
    const issuer = c.provider.url.replace(/\/+$/, '');
    assert.match(page, /<h2 id="connect">Connect your app<\/h2>/);
    assert.match(
      page,
      new RegExp(
        `<label for="issuer">Issuer</label>[\\s\\S]*?id="issuer" type="text" readonly value="${issuer}"`,
      ),
    );
    assert.match(
      page,
      new RegExp(
        `id="discovery-url" type="text" readonly value="${issuer}/.well-known/openid-configuration"`,
      ),
    );
    assert.match(page, new RegExp(`id="client-id" type="text" readonly value="${c.clientId}"`));
    for (const [target, name] of [
      ['issuer', 'Issuer'],
      ['discovery-url', 'Discovery URL'],
      ['client-id', 'Client ID'],
    ]) {
      assert.match(
        page,
        new RegExp(
          `<button type="button" class="secondary copy" data-copy="${target}" data-copied="${name} copied to the clipboard\\." [^>]*hidden>Copy<span class="visually-hidden"> ${name}</span></button>`,
        ),
        name,
      );
    }
    assert.doesNotMatch(page, /id="client-secret"/);
    assert.match(page, new RegExp(`say ${SECRET_PLACEHOLDER} in its place`));
  });

  it('each library’s configuration carries this application’s values, the secret as a placeholder', () => {
    const issuer = c.provider.url.replace(/\/+$/, '');
    const libraries = [...page.matchAll(/<details class="snippet">\n<summary>([^<]+)<\/summary>/g)].map(
      (m) => m[1],
    );
    assert.deepEqual(libraries, [
      'openid-client (Node)',
      'Spring Security (Java)',
      'Authlib (Python)',
      'go-oidc (Go)',
      'ASP.NET Core',
      'oauth2-proxy',
    ]);
    for (const id of ['node', 'spring', 'python', 'go', 'aspnet', 'oauth2-proxy']) {
      const code = snippet(page, id);
      assert.ok(code.includes(c.clientId), `${id}: client id`);
      assert.ok(code.includes(SECRET_PLACEHOLDER), `${id}: secret placeholder`);
      assert.ok(!code.includes(c.firstSecret), `${id}: never the secret`);
      assert.match(page, new RegExp(`data-copy="snippet-${id}"`), `${id}: Copy button`);
    }
    assert.ok(snippet(page, 'node').includes(`new URL("${issuer}")`));
    assert.ok(snippet(page, 'node').includes('redirect_uri: "https://shop.test/cb"'));
    assert.ok(snippet(page, 'spring').includes(`issuer-uri: "${issuer}"`));
    assert.ok(
      snippet(page, 'python').includes(`server_metadata_url="${issuer}/.well-known/openid-configuration"`),
    );
    assert.ok(snippet(page, 'go').includes(`oidc.NewProvider(ctx, "${issuer}")`));
    assert.ok(snippet(page, 'aspnet').includes('options.CallbackPath = "/cb";'));
    assert.ok(snippet(page, 'oauth2-proxy').includes(`--oidc-issuer-url='${issuer}'`));
  });

  it('the page runs only the console’s own Copy script (script-src self), served as JavaScript', async () => {
    const res = await c.admin.get(A());
    assert.match(res.headers.get('content-security-policy') ?? '', /default-src 'none'.*script-src 'self'/);
    assert.match(
      await res.text(),
      new RegExp(`<script src="/console/assets/${COPY_JS_NAME}" defer></script>`),
    );
    const js = await c.admin.get(`/console/assets/${COPY_JS_NAME}`);
    assert.equal(js.status, 200);
    assert.match(js.headers.get('content-type') ?? '', /^text\/javascript/);
    assert.match(await js.text(), /navigator\.clipboard\.writeText/);
    const list = await c.admin.get('/console/applications');
    assert.doesNotMatch(list.headers.get('content-security-policy') ?? '', /script-src/);
  });

  it('rotating the secret shows it once, with its Copy button and in every configuration', async () => {
    const res = await c.admin.post(`${A()}/secret`, { confirm: 'yes', csrf: csrf(page) });
    assert.equal(res.status, 200);
    const html = await res.text();
    const secret = /id="client-secret" type="text" readonly value="([^"]+)"/.exec(html)?.[1];
    assert.ok(secret);
    assert.match(
      html,
      /data-copy="client-secret"[^>]*>Copy<span class="visually-hidden"> Client secret<\/span>/,
    );
    for (const id of ['node', 'spring', 'python', 'go', 'aspnet', 'oauth2-proxy']) {
      assert.ok(snippet(html, id).includes(secret), id);
      assert.ok(!snippet(html, id).includes(SECRET_PLACEHOLDER), id);
    }
    const again = await (await c.admin.get(A())).text();
    assert.ok(!again.includes(secret), 'shown only once');
  });

  it('rarely used settings sit under Advanced; refresh tokens, lifetimes, CIBA lifetime and sid are saved', async () => {
    assert.match(page, /<details class="advanced">\n<summary>Advanced<\/summary>/);
    const advanced = /<details class="advanced">([\s\S]*?)<\/details>/.exec(page)![1]!;
    for (const label of [
      'Refresh token lifetime \\(seconds\\)',
      'Refresh token idle lifetime \\(seconds\\)',
      'Back-channel logout URI',
      'CIBA mode',
      'CIBA request lifetime \\(seconds\\)',
      'Aux-link prefix',
    ])
      assert.match(advanced, new RegExp(`>${label}</label>`), label);
    assert.match(page, /<label for="app-refresh">Refresh tokens \(offline_access\)<\/label>/);
    const res = await c.admin.post(
      A(),
      settingsForm(page, {
        refreshTokens: 'on',
        refreshAbsoluteLifetimeS: '86400',
        refreshIdleLifetimeS: '3600',
        cibaExpiresIn: '600',
        backchannelLogoutUri: 'https://shop.test/bc',
        backchannelLogoutSessionRequired: 'on',
      }),
    );
    assert.equal(res.status, 303, /role="alert">([\s\S]*?)<\/div>/.exec(await res.text())?.[1]);
    const app = await c.h.dir.applications.get(c.tenantId, c.appId);
    assert.deepEqual(app?.refreshTokens, { enabled: true, absoluteLifetimeS: 86_400, idleLifetimeS: 3600 });
    assert.equal(app?.ciba.expiresIn, 600);
    assert.equal(app?.backchannelLogoutSessionRequired, true);
    const diff = JSON.parse(String(c.h.adminEvents.at(-1)?.data?.diff));
    assert.deepEqual(Object.keys(diff).sort(), [
      'backchannelLogoutSessionRequired',
      'backchannelLogoutUri',
      'ciba',
      'refreshTokens',
    ]);
    const shown = await (await c.admin.get(A())).text();
    assert.match(shown, /id="app-refresh" name="refreshTokens" type="checkbox" value="on" checked/);
    assert.match(shown, /id="app-refresh-idle" name="refreshIdleLifetimeS" type="number" value="3600"/);
  });

  it('a refused Advanced value is marked beside its field, Advanced opens, everything typed is kept, nothing saved', async () => {
    const before = await c.h.dir.applications.get(c.tenantId, c.appId);
    const events = c.h.adminEvents.length;
    const fresh = await (await c.admin.get(A())).text();
    const res = await c.admin.post(
      A(),
      settingsForm(fresh, {
        name: 'Shop renamed',
        refreshTokens: 'on',
        refreshAbsoluteLifetimeS: '3600',
        refreshIdleLifetimeS: '7200',
        cibaExpiresIn: '600',
      }),
    );
    assert.equal(res.status, 400);
    const html = await res.text();
    assert.match(html, /<details class="advanced" open>/);
    assert.match(
      html,
      /<input id="app-refresh-idle" name="refreshIdleLifetimeS" type="number" value="7200" min="60" aria-invalid="true" aria-describedby="app-refresh-idle-error app-refresh-idle-hint" autofocus>/,
    );
    assert.match(
      html,
      /<p id="app-refresh-idle-error" class="field-error">Refresh token idle lifetime \(seconds\): must not exceed absoluteLifetimeS<\/p>/,
    );
    assert.match(html, /id="app-name" name="name" type="text" value="Shop renamed"/);
    assert.match(html, /<h1>Shop<\/h1>/);
    assert.deepEqual(await c.h.dir.applications.get(c.tenantId, c.appId), before);
    assert.equal(c.h.adminEvents.length, events);
    const notNumber = await c.admin.post(A(), settingsForm(fresh, { cibaExpiresIn: 'ten' }));
    assert.equal(notNumber.status, 400);
    assert.match(
      await notNumber.text(),
      /<p id="app-ciba-expires-error" class="field-error">CIBA request lifetime \(seconds\): /,
    );
  });

  it('a form without the refresh fields (a script, an older page) keeps the refresh-token settings', async () => {
    const fresh = await (await c.admin.get(A())).text();
    const { refreshFields: _r, ...older } = settingsForm(fresh, { allowedScopes: 'openid email' });
    assert.equal((await c.admin.post(A(), older)).status, 303);
    const app = await c.h.dir.applications.get(c.tenantId, c.appId);
    assert.deepEqual(app?.allowedScopes, ['openid', 'email']);
    assert.equal(app?.refreshTokens?.enabled, true);
    assert.equal(app?.backchannelLogoutSessionRequired, true);
  });

  it('turning refresh tokens off keeps the lifetimes typed, disabled', async () => {
    const fresh = await (await c.admin.get(A())).text();
    const res = await c.admin.post(
      A(),
      settingsForm(fresh, { refreshAbsoluteLifetimeS: '86400', refreshIdleLifetimeS: '3600' }),
    );
    assert.equal(res.status, 303);
    assert.deepEqual((await c.h.dir.applications.get(c.tenantId, c.appId))?.refreshTokens, {
      enabled: false,
      absoluteLifetimeS: 86_400,
      idleLifetimeS: 3600,
    });
  });

  it('Require DPoP (Advanced) turns dpopBoundAccessTokens on and off, and the page shows it', async () => {
    // The refresh lifetimes the test before left typed, so that only the checkbox changes.
    const keptRefresh = { refreshAbsoluteLifetimeS: '86400', refreshIdleLifetimeS: '3600' };
    const fresh = await (await c.admin.get(A())).text();
    assert.match(
      fresh,
      /<input id="app-dpop" name="dpopBoundAccessTokens" type="checkbox" value="on" aria-describedby="app-dpop-hint"><label for="app-dpop">Require DPoP<\/label><\/div>\s+<p id="app-dpop-hint" class="hint">Tokens only for requests with a DPoP proof \(RFC 9449\)/,
    );
    assert.equal(
      (await c.admin.post(A(), settingsForm(fresh, { ...keptRefresh, dpopBoundAccessTokens: 'on' }))).status,
      303,
    );
    assert.equal((await c.h.dir.applications.get(c.tenantId, c.appId))?.dpopBoundAccessTokens, true);
    assert.deepEqual(Object.keys(JSON.parse(String(c.h.adminEvents.at(-1)?.data?.diff))), [
      'dpopBoundAccessTokens',
    ]);
    const shown = await (await c.admin.get(A())).text();
    assert.match(shown, /id="app-dpop" name="dpopBoundAccessTokens" type="checkbox" value="on" checked/);
    assert.equal((await c.admin.post(A(), settingsForm(shown, keptRefresh))).status, 303);
    assert.equal((await c.h.dir.applications.get(c.tenantId, c.appId))?.dpopBoundAccessTokens, undefined);
  });

  it('FAPI 2.0 profile, Client certificate subject DN and Certificate-bound access tokens (Advanced)', async () => {
    const keptRefresh = { refreshAbsoluteLifetimeS: '86400', refreshIdleLifetimeS: '3600' };
    const fresh = await (await c.admin.get(A())).text();
    assert.match(
      fresh,
      /<input id="app-fapi2" name="securityProfile" type="checkbox" value="fapi2" aria-describedby="app-fapi2-hint"><label for="app-fapi2">FAPI 2.0 profile<\/label>/,
    );
    assert.match(fresh, /<label for="app-subject-dn">Client certificate subject DN<\/label>/);
    assert.match(
      fresh,
      /<input id="app-cert-bound" name="tlsClientCertificateBoundAccessTokens" type="checkbox" value="on" aria-describedby="app-cert-bound-hint"><label for="app-cert-bound">Certificate-bound access tokens<\/label>/,
    );
    // The app authenticates with its secret: the profile is refused beside the method, nothing is saved.
    const refused = await c.admin.post(
      A(),
      settingsForm(fresh, { ...keptRefresh, securityProfile: 'fapi2' }),
    );
    assert.equal(refused.status, 400);
    const html = await refused.text();
    assert.match(
      html,
      /id="app-fapi2" name="securityProfile" type="checkbox" value="fapi2" checked aria-describedby="app-fapi2-hint">/,
    );
    assert.match(
      html,
      /<select id="app-auth-method" name="tokenEndpointAuthMethod" aria-invalid="true" aria-describedby="app-auth-method-error app-auth-method-hint" autofocus>/,
    );
    assert.match(
      html,
      /<p id="app-auth-method-error" class="field-error">Client authentication method: the FAPI 2.0 profile needs private_key_jwt, tls_client_auth or self_signed_tls_client_auth<\/p>/,
    );
    const badDn = await c.admin.post(
      A(),
      settingsForm(fresh, { ...keptRefresh, tlsClientAuthSubjectDn: 'CN=rp' }),
    );
    assert.equal(badDn.status, 400);
    assert.match(
      await badDn.text(),
      /<p id="app-subject-dn-error" class="field-error">Client certificate subject DN: is used only with tokenEndpointAuthMethod tls_client_auth<\/p>/,
    );
    assert.equal((await c.h.dir.applications.get(c.tenantId, c.appId))?.securityProfile, undefined);
    // Registered for tls_client_auth (admin API), the console sets the profile, the DN and the binding.
    await c.h.dir.applications.update(c.tenantId, c.appId, {
      tokenEndpointAuthMethod: 'tls_client_auth',
      tlsClientAuthSubjectDn: 'CN=rp,O=Bank',
      updatedAt: Date.now(),
    });
    const mtls = await (await c.admin.get(A())).text();
    assert.match(
      mtls,
      /id="app-subject-dn" name="tlsClientAuthSubjectDn" type="text" value="CN&#x3D;rp,O&#x3D;Bank"/,
    );
    const saved = await c.admin.post(
      A(),
      settingsForm(mtls, {
        ...keptRefresh,
        securityProfile: 'fapi2',
        tlsClientAuthSubjectDn: 'CN=bank-rp,O=Bank,C=DE',
        tlsClientCertificateBoundAccessTokens: 'on',
      }),
    );
    assert.equal(saved.status, 303);
    const app = await c.h.dir.applications.get(c.tenantId, c.appId);
    assert.deepEqual(
      [app?.securityProfile, app?.tlsClientAuthSubjectDn, app?.tlsClientCertificateBoundAccessTokens],
      ['fapi2', 'CN=bank-rp,O=Bank,C=DE', true],
    );
    const shown = await (await c.admin.get(A())).text();
    assert.match(shown, /id="app-fapi2" name="securityProfile" type="checkbox" value="fapi2" checked/);
    assert.match(
      shown,
      /id="app-cert-bound" name="tlsClientCertificateBoundAccessTokens" type="checkbox" value="on" checked/,
    );
    // Unticked: the profile and the binding are gone; back to the secret for the tests after this one.
    assert.equal(
      (
        await c.admin.post(
          A(),
          settingsForm(shown, { ...keptRefresh, tlsClientAuthSubjectDn: 'CN=bank-rp,O=Bank,C=DE' }),
        )
      ).status,
      303,
    );
    const cleared = await c.h.dir.applications.get(c.tenantId, c.appId);
    assert.deepEqual(
      [cleared?.securityProfile, cleared?.tlsClientCertificateBoundAccessTokens],
      [undefined, undefined],
    );
    await c.h.dir.applications.update(c.tenantId, c.appId, {
      tokenEndpointAuthMethod: undefined,
      tlsClientAuthSubjectDn: undefined,
      updatedAt: Date.now(),
    });
  });

  it('the application’s branding: saved over the tenant’s, a bad colour marked beside its field', async () => {
    assert.match(
      page,
      new RegExp(`<a href="/console/applications/${c.appId}/branding">Branding of this application</a>`),
    );
    const form = await (await c.admin.get(`${A()}/branding`)).text();
    assert.match(form, /<h1>Branding of Shop<\/h1>/);
    const bad = await c.admin.post(`${A()}/branding`, {
      csrf: csrf(form),
      displayName: 'Shop sign-in',
      lightAccent: 'blue',
      lightBackground: '#ffffff',
    });
    assert.equal(bad.status, 400);
    const html = await bad.text();
    assert.match(
      html,
      /id="ab-la" name="lightAccent" type="text" value="blue" aria-invalid="true" aria-describedby="ab-la-error" autofocus>/,
    );
    assert.match(html, /<p id="ab-la-error" class="field-error">Accent colour: /);
    assert.match(html, /id="ab-name" name="displayName" type="text" value="Shop sign-in"/);
    assert.equal(await c.h.dir.branding.get(c.tenantId, c.appId), undefined);
    const ok = await c.admin.post(`${A()}/branding`, {
      csrf: csrf(form),
      displayName: 'Shop sign-in',
      lightAccent: '#1d4ed8',
      lightBackground: '#ffffff',
    });
    assert.equal(ok.status, 303);
    const saved = await c.h.dir.branding.get(c.tenantId, c.appId);
    assert.equal(saved?.settings.displayName, 'Shop sign-in');
    assert.deepEqual(saved?.settings.light, { accent: '#1d4ed8', background: '#ffffff' });
    assert.equal(await c.h.dir.branding.get(c.tenantId), undefined, 'the tenant’s branding is untouched');
  });
});

describe('Connect your app snippets', () => {
  const values = {
    issuer: 'https://id.example',
    discoveryUrl: 'https://id.example/.well-known/openid-configuration',
    clientId: 'client-1',
    redirectUri: 'com.example.app:/callback',
  };

  it('a public client’s configurations carry no secret and say how it authenticates (none, PKCE)', () => {
    const byId = Object.fromEntries(snippetsOf(values).map((s) => [s.id, s.code]));
    assert.match(byId.node!, /undefined, \/\/ a public client: no secret, PKCE only\n {2}client\.None\(\)/);
    assert.match(byId.spring!, /client-authentication-method: none/);
    assert.match(byId.python!, /"token_endpoint_auth_method": "none"/);
    assert.doesNotMatch(byId['oauth2-proxy']!, /--client-secret/);
    for (const code of Object.values(byId)) assert.doesNotMatch(code, new RegExp(SECRET_PLACEHOLDER));
  });

  it('quotes every value for its language: a quote in a secret cannot end the string', () => {
    const byId = Object.fromEntries(snippetsOf({ ...values, secret: `se"cr'et` }).map((s) => [s.id, s.code]));
    assert.match(byId.node!, /"se\\"cr'et"/);
    assert.match(byId['oauth2-proxy']!, /--client-secret='se"cr'\\''et'/);
  });
});
