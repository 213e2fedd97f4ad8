import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it, jest } from '@jest/globals';
import { connectMongo } from '@sesame/mongo';
import {
  type Browser,
  type BrowserContext,
  type Page,
  checkPage,
  desktopContext,
  launchBrowser,
  type virtualAuthenticator,
} from '@sesame/testing/browser';
import type * as oidc from 'openid-client';
import {
  actionsOf,
  authorizationRequest,
  type catchCallbacks,
  demoActivityLogs,
  freshEmail,
  passkeyBrowser,
  redeemCallback,
  rpConfig,
  withoutPasskeyAutofill,
} from './hosted-signin-support';
import type { RealPlatform } from './real-platform';
import { registeredUri, sendActivation, startRegistrationPlatform } from './registration-support';

/**
 * Registration by an emailed link (send-activation, spec 4.5) in Debian's chromium against the six services on
 * the real servers (Redis, Kafka, the Mongo-wire server, the tests' SMTP server): the RP sends the link, the
 * person opens it from the mail, creates a passkey with the DevTools virtual authenticator and lands on the
 * completion page; then signs in with that passkey and the RP's ID token carries the alias (svc_alias).
 * Every page passes checkPage (axe, 100 KB without the WebAuthn bundle, screenshot).
 */
jest.setTimeout(180_000);

const webAuthnBundle = /\/assets\/passkeys\.[0-9a-f]{10}\.js/;

describe('registration by an emailed link in a real browser', () => {
  let env: RealPlatform;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let config: oidc.Configuration;
  let callbacks: Awaited<ReturnType<typeof catchCallbacks>>;
  let authenticator: Awaited<ReturnType<typeof virtualAuthenticator>>;
  let link: string;
  let sub: string;
  const email = freshEmail('register');
  const alias = `alias-${Date.now().toString(36)}`;
  const startedAt = Date.now();

  beforeAll(async () => {
    env = await startRegistrationPlatform('registration');
    browser = await launchBrowser();
    config = await rpConfig(env.platform.url, env.demo.clientId, env.demo.clientSecret);
    ({ context, callbacks, page, authenticator } = await passkeyBrowser(await desktopContext(browser)));
    // The passkey autofill on the identify page would start a ceremony of its own; the button's is the one here.
    await withoutPasskeyAutofill(context);
  });
  afterAll(async () => {
    await context?.close().catch(() => undefined);
    await browser?.close();
    await env?.stop();
  });

  const check = (name: string) => checkPage(page, `registration-${name}`, { excludeUrl: webAuthnBundle });

  it('send-activation answers the spec’s response and the SMTP server receives the link', async () => {
    link = await sendActivation(env, {
      userEmail: email,
      scopes: ['email'],
      verifications: ['ts.svc.iac.email'],
      alias: { type: 'alias', value: alias },
      customMessage: 'Welcome to the demo shop.',
      completionMessage: {
        text: 'Your demo account is ready.',
        link: { redirectUri: env.demo.redirectUri, label: 'Open the demo shop' },
      },
    });
  });

  it('the link → Continue → Create a passkey → the completion page with its text, link and the way back', async () => {
    await page.goto(link);
    await page.getByRole('heading', { name: 'Create your account' }).waitFor();
    assert.ok(await page.getByText('Welcome to the demo shop.').isVisible());
    await check('start');
    await page.getByRole('button', { name: 'Continue' }).click();

    await page.getByRole('button', { name: 'Create a passkey' }).waitFor();
    assert.ok(await page.getByRole('button', { name: 'Not now' }).isVisible());
    await check('passkey');
    await page.getByRole('button', { name: 'Create a passkey' }).click();

    await page.getByRole('heading', { name: 'You are registered' }).waitFor();
    assert.ok(await page.getByText('Your demo account is ready.').isVisible());
    const openLink = page.getByRole('link', { name: 'Open the demo shop' });
    assert.equal(await openLink.getAttribute('href'), env.demo.redirectUri);
    await check('complete');
    const back = page.getByRole('link', { name: /^Continue to / });
    assert.equal(await back.getAttribute('href'), registeredUri);
    const landed = callbacks.next();
    await back.click();
    assert.equal(await landed, registeredUri);

    const credentials = await authenticator.credentials();
    assert.equal(credentials.length, 1);
    assert.equal(credentials[0]!.isResidentCredential, true);
    sub = Buffer.from(credentials[0]!.userHandle ?? '', 'base64').toString();
    assert.match(sub, /^[0-9a-f-]{36}$/);
  });

  it('the used link is a clear page (410), not a second registration', async () => {
    const res = await page.goto(link);
    assert.equal(res?.status(), 410);
    await page.getByRole('heading', { name: 'Registration link not valid' }).waitFor();
    await check('invalid');
  });

  it('the user is bound to the app with the alias (membership confirmed, as session feedback would)', async () => {
    const conn = await connectMongo(env.mongoUrl, { appName: 'registration-e2e' });
    try {
      const membership = await conn
        .collection('app_memberships')
        .findOne({ tenantId: env.demo.tenantId, appId: env.demo.appId, userId: sub });
      assert.equal(membership?.confirmed, true);
      assert.equal(membership?.alias, alias);
      // The registration's passkey is the bound authenticator; the next login says it is the first confirmed one.
      assert.equal(membership?.boundCredentials?.length, 1);
      assert.equal(membership?.firstConfirmedLoginPending, true);
      const user = await conn.collection('users').findOne({ userId: sub });
      assert.equal(user?.email, email);
      assert.equal(typeof user?.emailVerifiedAt, 'number');
    } finally {
      await conn.close();
    }
  });

  it('a sign-in with that passkey: amr ts.svc.mfca, acr ts.svc.app_bound_cred, the same sub, svc_alias, capp_first_confirmed_login, email_verified, no consent asked', async () => {
    const req = await authorizationRequest(config, env.demo.redirectUri, {
      scope: 'openid email',
      prompt: 'login',
    });
    await page.goto(req.url.href);
    const callback = callbacks.next();
    await page.getByRole('button', { name: 'Use a passkey' }).click();
    const url = await callback;
    await page.waitForURL(url);
    const claims = await redeemCallback(config, url, req);
    assert.equal(claims.sub, sub);
    assert.deepEqual(claims.amr, ['ts.svc.mfca']);
    assert.equal(claims.svc_alias, alias);
    // confirmedUser (the default): the registration's passkey is bound to the app, as after session feedback.
    assert.ok(String(claims.acr).split(' ').includes('ts.svc.app_bound_cred'), `acr ${claims.acr}`);
    assert.ok((claims.svc_info as Record<string, unknown>).capp_first_confirmed_login);
    assert.equal(claims.email, email);
    assert.equal(claims.email_verified, true);
  });

  it('activity-logs shows the registration as one enrollment record, started and completed', async () => {
    const logs = demoActivityLogs(env, startedAt);
    const deadline = Date.now() + 60_000;
    let record: Awaited<ReturnType<typeof logs.query>>[number] | undefined;
    while (Date.now() < deadline) {
      record = (await logs.query({ userId: sub })).find((r) => r.flowType === 'enrollment');
      if (record && actionsOf(record).includes('custodian_registration_completed')) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    assert.ok(record, 'an enrollment record for the user');
    const actions = actionsOf(record);
    for (const action of [
      'custodian_registration_started',
      'new_user_registered',
      'email_verification_success',
      'desktop_biometrics_registered',
      'custodian_registration_completed',
    ]) {
      assert.ok(actions.includes(action), `${action} in [${actions}]`);
    }
    assert.equal(record.status, 'success');
  });
});
