import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { startedForSuite } from '@sesame/testing/suite';
import { type StepUpAction, stepUpTable } from '../admins/step-up';
import { startSignedInConsole } from '../testing/console-fixture';
import { ConsoleBrowser } from '../testing/fake-provider';

const csrf = ConsoleBrowser.csrfOf;
const STALE_MS = 11 * 60_000;

/** The Branding form as a browser sends it (multipart: it carries the logo file). */
const postBranding = (b: ConsoleBrowser, url: string, fields: Record<string, string>) => {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  return fetch(`${url}/console/branding`, {
    method: 'POST',
    body: form,
    redirect: 'manual',
    headers: { cookie: `sesame-console=${b.cookie}` },
  });
};

/** The application form with every field as the page shows it, `over` changed. */
const appForm = (over: Record<string, string>) => ({
  name: 'Shop',
  redirectUris: 'https://shop.test/cb',
  registrationRedirectUri: '',
  auxLinkPrefix: '',
  allowedScopes: 'openid',
  registrationLinkExpiresIn: '',
  postLogoutRedirectUris: '',
  backchannelLogoutUri: '',
  cibaMode: 'poll',
  cibaNotificationEndpoint: '',
  ...over,
});

describe('console step-up: a sign-in over 10 minutes old may not do what grants access or redirects tokens', () => {
  const acme = startedForSuite(async () => {
    const f = await startSignedInConsole({ owner: 'owner' }, [['other@acme.test', 'administrator']]);
    const { appId } = await f.h.createApp<{ appId: string }>(f.tenantId, {
      name: 'Shop',
      redirectUris: ['https://shop.test/cb'],
    });
    const { credentialsId } = (await (
      await f.h.admin('POST', `/api/v1/admin/tenants/${f.tenantId}/credentials`, {})
    ).json()) as { credentialsId: string };
    await f.h.admins.tokens.create({
      tokenId: 'tok-other',
      tenantId: f.tenantId,
      email: 'other@acme.test',
      name: 'theirs',
      tokenHash: 'hash-other',
      createdAt: f.h.clock.now(),
      expiresAt: f.h.clock.now() + 86_400_000,
    });
    await f.h.admins.tokens.create({
      tokenId: 'tok-own',
      tenantId: f.tenantId,
      email: 'owner@acme.test',
      name: 'mine',
      tokenHash: 'hash-own',
      createdAt: f.h.clock.now(),
      expiresAt: f.h.clock.now() + 86_400_000,
    });
    f.h.peers.memberships.push({ tenantId: f.tenantId, appId, userId: 'user-1' });
    // The form's CSRF token, read while the sign-in was fresh; then the sign-in grows old.
    const page = await (await f.owner.get('/console/tokens')).text();
    f.h.clock.t += STALE_MS;
    return Object.assign(f, { appId, credentialsId, formCsrf: csrf(page) });
  });

  /** Everything a table action could change. */
  const state = async () => ({
    events: acme.h.adminEvents.length,
    mail: acme.h.mail.length,
    tenants: (await acme.h.dir.tenants.list()).map((t) => [t.tenantId, t.name, t.blockedCountries]),
    apps: await acme.h.dir.applications.list(acme.tenantId),
    credentials: await acme.h.dir.credentials.list(acme.tenantId),
    tokens: [
      ...(await acme.h.admins.tokens.list(acme.tenantId, 'owner@acme.test')),
      ...(await acme.h.admins.tokens.list(acme.tenantId, 'other@acme.test')),
    ],
    invitations: await acme.h.admins.invitations.list(acme.tenantId),
    admins: await acme.h.admins.accounts.list(acme.tenantId),
    branding: await acme.h.dir.branding.get(acme.tenantId),
    blocked: acme.h.peers.blocked.length,
    removed: acme.h.peers.removeCalls.length,
    signOuts: acme.h.peers.signOuts.length,
    disables: acme.h.peers.disables.length,
    activations: acme.h.peers.activationCalls.length,
  });

  const A = () => `/console/applications/${acme.appId}`;
  const post = (path: string, form: Record<string, string> = {}) =>
    acme.owner.post(path, { csrf: acme.formCsrf, ...form });
  /** One console request per row of the step-up table that needs a recent sign-in. */
  const attempts: Record<string, () => Promise<Response>> = {
    'token.create': () => post('/console/tokens', { name: 'stale' }),
    'token.revoke': () => post('/console/tokens/tok-own/revoke'),
    'token.revokeOther': () => post('/console/tokens/tok-other/revoke'),
    'administrators.invite': () =>
      post('/console/administrators/invite', { email: 'mallory@evil.test', role: 'owner' }),
    'administrators.changeRole': () =>
      post('/console/administrators/other%40acme.test/role', { role: 'owner' }),
    'administrators.remove': () => post('/console/administrators/other%40acme.test/remove'),
    'application.create': () =>
      post('/console/applications', { name: 'Evil', redirectUris: 'https://evil.test/cb' }),
    'application.redirects': () => post(A(), appForm({ redirectUris: 'https://evil.test/cb' })),
    'application.clientType': () => post(`${A()}/client-type`, { clientType: 'public' }),
    'application.rotateSecret': () => post(`${A()}/secret`),
    'application.remove': () => post(`${A()}/remove`, { confirmName: 'Shop' }),
    'credentials.create': () => post('/console/credentials'),
    'credentials.revoke': () => post(`/console/credentials/${acme.credentialsId}/revoke`),
    'tenant.create': () => post('/console/tenants', { name: 'Evil tenant' }),
    'riskRule.write': () => post('/console/settings/blocked-countries', { countries: 'FR' }),
    'device.block': () => post('/console/users/user-1/devices/device-1/block', { allowAccess: 'false' }),
    'user.remove': () => post('/console/users/user-1/remove'),
    'user.signOutEverywhere': () => post('/console/users/user-1/sign-out-everywhere'),
    'user.disable': () => post('/console/users/user-1/status', { disabled: 'true' }),
    'passkey.remove': () => post('/console/users/user-1/passkeys/cred-1/remove'),
    'phone.remove': () => post('/console/users/user-1/phone/remove'),
    'person.add': () => post('/console/people/new', { email: 'mallory@evil.test', app: acme.appId }),
    'branding.links': () =>
      postBranding(acme.owner, acme.h.url, { csrf: acme.formCsrf, supportUrl: 'https://evil.test/help' }),
  };

  it('every row of the table that needs a recent sign-in has its console request here', () => {
    const rows = Object.entries(stepUpTable)
      .filter(([, row]) => row.recentSignIn)
      .map(([action]) => action);
    assert.deepEqual(Object.keys(attempts).sort(), rows.sort());
  });

  it.each(Object.keys(attempts))(
    '%s: 403 “needs a recent sign-in” offering Sign in again (prompt=login), and nothing changes',
    async (action) => {
      const before = await state();
      const res = await attempts[action as StepUpAction]!();
      const html = await res.text();
      assert.equal(res.status, 403, html);
      assert.match(html, /This needs a recent sign-in\. Sign in again to continue\./);
      // (Handlebars escapes = as &#x3D; in attributes: the same URL to a browser.)
      assert.match(html, /href="\/console\/signin\?return&#x3D;%2Fconsole%2F[^"]*&amp;prompt&#x3D;login"/);
      assert.deepEqual(await state(), before);
    },
  );

  it('application edits that touch a redirect, logout, back-channel, CIBA, registration or aux-link URI each need it', async () => {
    const edits: Record<string, string>[] = [
      { postLogoutRedirectUris: 'https://evil.test/bye' },
      { backchannelLogoutUri: 'https://evil.test/bc' },
      { cibaMode: 'ping', cibaNotificationEndpoint: 'https://evil.test/ciba' },
      { registrationRedirectUri: 'https://evil.test/registered' },
      { auxLinkPrefix: 'https://evil.test/aux/' },
    ];
    for (const over of edits) {
      const before = await state();
      const res = await post(A(), appForm(over));
      assert.equal(res.status, 403, JSON.stringify(over));
      assert.deepEqual(await state(), before, JSON.stringify(over));
    }
  });

  it('what the table leaves out works without one: renaming the application, the tenant, branding colours', async () => {
    assert.equal((await post(A(), appForm({ name: 'Shop renamed' }))).status, 303);
    assert.equal((await acme.h.dir.applications.get(acme.tenantId, acme.appId))?.name, 'Shop renamed');
    assert.equal((await post('/console/settings/name', { name: 'Acme renamed' })).status, 303);
    const branded = await postBranding(acme.owner, acme.h.url, {
      csrf: acme.formCsrf,
      displayName: 'Acme',
    });
    assert.equal(branded.status, 303);
  });

  it('after a fresh sign-in (prompt=login) the same session may invite an Owner and add a redirect URI', async () => {
    await acme.owner.signIn('owner@acme.test', '/console/administrators', true);
    const page = await (await acme.owner.get('/console/administrators')).text();
    const invited = await acme.owner.post('/console/administrators/invite', {
      csrf: csrf(page),
      email: 'new@acme.test',
      role: 'owner',
    });
    assert.equal(invited.status, 201);
    const saved = await acme.owner.post(A(), {
      csrf: csrf(page),
      ...appForm({ name: 'Shop renamed', redirectUris: 'https://shop.test/cb\nhttps://shop.test/cb2' }),
    });
    assert.equal(saved.status, 303);
    assert.deepEqual((await acme.h.dir.applications.get(acme.tenantId, acme.appId))?.redirectUris, [
      'https://shop.test/cb',
      'https://shop.test/cb2',
    ]);
  });
});
