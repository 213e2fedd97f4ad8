import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { MemoryEventBus } from '@sesame/events';
import { users } from '@sesame/proto';
import { SoftwareAuthenticator } from '../../passkeys/software-authenticator';
import { createPasskey } from '../../testing/create-passkey';
import { assertActions } from '../../testing/events';
import { TestBrowser, authorizePath, flowEventsReader, startAuth } from '../../testing/hosted-test-client';
import { activationRequest } from '../../testing/invitations';
import { type UsersClient, type UsersGrpcHarness, startUsersGrpc } from '../../testing/users-grpc';

type Auth = Awaited<ReturnType<typeof startAuth>>;
const origin = 'http://localhost';

/**
 * The registration pages (send-activation's link) over HTTP, with invitations made through the Users
 * contract: the link, Continue, a passkey or Not now, the binding to the app and the completion page.
 */
describe('registration by an emailed link (auth service, in-memory stores)', () => {
  let auth: Auth;
  let grpc: UsersGrpcHarness;
  let usersClient: UsersClient;
  const bus = new MemoryEventBus();
  /** The flow's events published so far, in order (one flow keeps to one partition). */
  const eventsOf = flowEventsReader(() => bus);

  beforeAll(async () => {
    auth = await startAuth({ bus });
    grpc = await startUsersGrpc((server) => auth.module.grpc?.(server));
    usersClient = await grpc.client();
  });
  afterAll(async () => {
    await grpc.stop();
    await auth.stop();
  });

  /** Sends an invitation and returns the link's path and the registration's flow id. */
  async function invite(over: Partial<users.CreateActivationLinkRequest> = {}) {
    // Aliases are unique per app: each person gets their own unless the test names one.
    const email = over.userEmail ?? 'ada@example.com';
    const req = activationRequest({ aliasValue: email.split('@')[0], ...over });
    const { flowId } = await usersClient.createActivationLink(req);
    const mail = auth.outbox.list().find((m) => m.to === req.userEmail.toLowerCase());
    const link = /\/register\/[\w-]{43}/.exec(mail?.text ?? '')?.[0];
    assert.ok(link, 'the mail carries the link');
    return { link, flowId };
  }

  /** Opens the link and presses Continue: lands on the registration's passkey step. */
  async function takeLink(link: string, browser = auth.browser()) {
    const start = await browser.request(link);
    assert.equal(start.status, 200);
    const csrf = TestBrowser.csrf(start.body);
    const taken = await browser.request(link, { form: { csrf } });
    assert.equal(taken.status, 303);
    assert.match(taken.location, /^\/registration\/[0-9a-f-]{36}$/);
    return { browser, csrf, flow: taken.location, start };
  }

  it('the link shows who invites, the custom message and Continue, and a mail scanner’s GETs spend nothing', async () => {
    const { link } = await invite({ userEmail: 'scan@example.com', customMessage: 'Welcome to the Shop!' });
    const browser = auth.browser();
    for (let i = 0; i < 3; i++) assert.equal((await browser.request(link)).status, 200);
    const page = await browser.request(link);
    assert.match(page.body, /<h1>Create your account<\/h1>/);
    assert.match(page.body, /Shop invited you to create an account for scan@example\.com/);
    assert.match(page.body, /Welcome to the Shop!/);
    assert.match(page.body, /<button type="submit">Continue<\/button>/);
    assert.equal(page.headers.get('cache-control'), 'no-store');
  });

  it('Continue → Create a passkey → completion: verified user, passkey, app membership confirmed with the alias', async () => {
    const { link, flowId } = await invite({
      userEmail: 'ada@example.com',
      customMessage: 'Welcome to the Shop!',
      completionText: 'Your card is on its way.',
      completionLink: { redirectUri: 'https://rp.example/cb', label: 'Open the Shop' },
    });
    const { browser, csrf, flow } = await takeLink(link);
    assert.equal(flow, `/registration/${flowId}`);
    const step = await browser.request(flow);
    assert.match(step.body, /data-passkey-button hidden>Create a passkey</);
    assert.match(step.body, /<button type="submit" class="secondary">Not now</);
    assert.match(step.body, /Welcome to the Shop!/);
    const { authenticator, created } = await createPasskey(browser, flow, csrf);
    assert.deepEqual(JSON.parse(created.body), { location: `${flow}/complete` });
    const done = await browser.request(`${flow}/complete`);
    assert.equal(done.status, 200);
    assert.match(done.body, /<h1>You are registered<\/h1>/);
    assert.match(done.body, /Your card is on its way\./);
    assert.match(done.body, /<a class="button" href="https:\/\/rp\.example\/cb">Open the Shop<\/a>/);
    assert.match(done.body, /href="https:\/\/rp\.example\/registered">Continue to Shop<\/a>/);

    const user = await auth.users.users.findByEmail('ada@example.com');
    assert.ok(user?.emailVerifiedAt, 'email_verified by the link');
    assert.equal((await auth.passkeys.get(authenticator.credentialId))?.userId, user.userId);
    const membership = await auth.users.memberships.get('tenant-1', 'app-1', user.userId);
    assert.equal(membership?.confirmed, true);
    assert.equal(membership?.alias, 'ada');
    // As if session feedback confirmed it (spec 4.5 confirmedUser): the passkey is bound to the app.
    assert.deepEqual(membership?.boundCredentials, [authenticator.credentialId]);
    assert.equal(membership?.firstConfirmedLoginPending, true);
    assert.deepEqual(membership?.consentedScopes, ['email']);

    const events = eventsOf(flowId);
    assertActions(events, [
      'custodian_registration_started',
      'new_user_registered',
      'email_verification_success',
      'new_device_registered',
      'desktop_biometrics_registered',
      'custodian_registration_completed',
    ]);
    assert.ok(events.every((e) => e.flowType === 'enrollment'));
    assert.deepEqual([events.at(-1)?.status, events.at(-1)?.userAlias], ['success', 'ada']);

    // A later sign-in with that passkey: the code's claims carry the alias (svc_alias).
    authenticator.counter = 1;
    const signIn = auth.browser();
    const page = await signIn.request(authorizePath({ scope: 'openid email', prompt: 'login' }));
    const signInCsrf = TestBrowser.csrf(page.body);
    const signInFlow = TestBrowser.formAction(page.body).replace(/\/email$/, '');
    const assertOptions = await signIn.request(`${signInFlow}/passkey/sign-in-options`, {
      json: { csrf: signInCsrf },
    });
    const response = authenticator.get(JSON.parse(assertOptions.body), { origin });
    await signIn.request(`${signInFlow}/passkey/sign-in`, { json: { csrf: signInCsrf, response } });
    const redirect = await signIn.request(`${signInFlow}/continue`);
    assert.match(redirect.location, /^https:\/\/rp\.example\/cb\?code=/, 'no consent: email was shared');
    const claims = auth.issued.at(-1)?.claims;
    assert.equal(claims?.alias, 'ada');
    assert.deepEqual(claims?.amr, ['ts.svc.mfca']);
    assert.ok(claims?.acr.includes('ts.svc.app_bound_cred'), `acr ${claims?.acr}`);
    assert.ok(claims?.svcInfo?.cappFirstConfirmedLogin, 'the first login after the confirmation says so');
  });

  it('Not now finishes without a passkey (email codes from then on); confirmedUser false binds nothing', async () => {
    const { link, flowId } = await invite({
      userEmail: 'later@example.com',
      confirmedUser: false,
      aliasType: users.ActivationAliasType.ACTIVATION_ALIAS_TYPE_UNSPECIFIED,
      aliasValue: '',
    });
    const { browser, csrf, flow } = await takeLink(link);
    const later = await browser.request(`${flow}/not-now`, { form: { csrf } });
    assert.deepEqual([later.status, later.location], [303, `${flow}/complete`]);
    const done = await browser.request(`${flow}/complete`);
    assert.match(done.body, /Your account for Shop is ready\./);
    const user = await auth.users.users.findByEmail('later@example.com');
    assert.deepEqual(await auth.passkeys.listForUser(user!.userId), []);
    assert.equal(await auth.users.memberships.get('tenant-1', 'app-1', user!.userId), undefined);
    assert.equal(eventsOf(flowId).at(-1)?.action, 'custodian_registration_completed');
  });

  it('alias type email stores the user’s address as the alias', async () => {
    const { link } = await invite({
      userEmail: 'mail-alias@example.com',
      aliasType: users.ActivationAliasType.ACTIVATION_ALIAS_TYPE_EMAIL,
      aliasValue: '',
    });
    const { browser, csrf, flow } = await takeLink(link);
    await browser.request(`${flow}/not-now`, { form: { csrf } });
    const user = await auth.users.users.findByEmail('mail-alias@example.com');
    const membership = await auth.users.memberships.get('tenant-1', 'app-1', user!.userId);
    assert.equal(membership?.alias, 'mail-alias@example.com');
  });

  it('a used link is a clear page (410, in the browser’s language), for GET and for Continue', async () => {
    const { link } = await invite({ userEmail: 'used@example.com' });
    const { browser, csrf } = await takeLink(link);
    const again = await browser.request(link);
    assert.equal(again.status, 410);
    assert.match(again.body, /<h1>Registration link not valid<\/h1>/);
    assert.equal((await browser.request(link, { form: { csrf } })).status, 410);
    browser.headers['accept-language'] = 'de';
    assert.match((await browser.request(link)).body, /<h1>Registrierungslink ungültig<\/h1>/);
    browser.headers['accept-language'] = 'fr';
    assert.match((await browser.request(link)).body, /<h1>Lien d’inscription non valide<\/h1>/);
  });

  it('an expired link and a made-up one are the same clear page, never a 500', async () => {
    const { link } = await invite({ userEmail: 'expired@example.com', expiresInS: 1 });
    await new Promise((r) => setTimeout(r, 1100));
    const browser = auth.browser();
    const expired = await browser.request(link);
    assert.equal(expired.status, 410);
    assert.match(expired.body, /Registration link not valid/);
    for (const bad of ['/register/x', `/register/${'A'.repeat(43)}`, '/register/%00']) {
      const res = await browser.request(bad);
      assert.equal(res.status, 410, bad);
    }
    // A path that is not even valid percent-encoding is the platform's 400, not a crash.
    const broken = await browser.request('/register/%ff');
    assert.equal(broken.status, 400);
    assert.doesNotMatch(broken.body, /at \w+ \(/);
  });

  it('Continue without the page’s CSRF token is refused and does not spend the link', async () => {
    const { link } = await invite({ userEmail: 'csrf@example.com' });
    const browser = auth.browser();
    await browser.request(link);
    assert.equal((await browser.request(link, { form: { csrf: 'forged' } })).status, 403);
    assert.equal((await auth.browser().request(link, { form: { csrf: '' } })).status, 403);
    assert.equal((await browser.request(link)).status, 200, 'the link still works');
  });

  it('only the browser that took the link drives the registration, and every POST needs its CSRF token', async () => {
    const { link } = await invite({ userEmail: 'owner@example.com' });
    const { browser, csrf, flow } = await takeLink(link);
    const other = auth.browser();
    await other.request(link.replace(/.$/, '-'));
    assert.equal((await other.request(flow)).status, 403);
    assert.equal((await other.request(`${flow}/not-now`, { form: { csrf } })).status, 403);
    assert.equal((await browser.request(`${flow}/not-now`, { form: { csrf: 'forged' } })).status, 403);
    assert.equal((await browser.request(`${flow}/complete`)).location, flow, 'not complete yet');
    const garbage = await browser.request(`${flow}/passkey/create`, {
      json: { csrf, response: { id: 'x' } },
    });
    assert.equal(garbage.status, 400);
    const stale = await browser.request(`${flow}/passkey/create`, {
      json: { csrf, response: { id: 'x', response: {} } },
    });
    assert.deepEqual([stale.status, JSON.parse(stale.body)], [400, { error: 'expired' }]);
  });

  it('an unknown or expired registration id is the flow-expired page', async () => {
    const res = await auth.browser().request('/registration/00000000-0000-4000-8000-000000000000');
    assert.equal(res.status, 410);
  });
});
