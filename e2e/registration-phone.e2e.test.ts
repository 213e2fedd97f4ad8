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
  phoneContext,
  readQrFromScreenshot,
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
 * Registration by an emailed link (send-activation, spec 4.5) finished on a phone, in Debian's chromium against
 * the six services on the real servers: the mailed link is taken on a desktop context, whose passkey step offers
 * **Use my phone**; the desktop shows a QR (and its link as text); a phone-sized context (412×915, mobile
 * User-Agent) with its own DevTools virtual authenticator opens that link and creates the passkey there; the
 * desktop tab continues to the completion page by itself (flow-wait.js long-polls the status URL). The phone's passkey
 * then signs in to the RP as the registered user; activity-logs keeps one record of the registration; the QR's
 * link opens once. The QR must be opened within the default 30 s (spec 8).
 */
jest.setTimeout(180_000);

const webAuthnBundle = /\/assets\/passkeys\.[0-9a-f]{10}\.js/;
const secondaryMessage = 'Your phone is ready for the demo shop.';

describe('registration by an emailed link, the passkey created on a phone by QR, in a real browser', () => {
  let env: RealPlatform;
  let browser: Browser;
  let config: oidc.Configuration;
  let desktop: BrowserContext;
  let phone: BrowserContext;
  let desktopPage: Page;
  let phonePage: Page;
  let desktopCallbacks: Awaited<ReturnType<typeof catchCallbacks>>;
  let phoneCallbacks: Awaited<ReturnType<typeof catchCallbacks>>;
  let desktopAuthenticator: Awaited<ReturnType<typeof virtualAuthenticator>>;
  let phoneAuthenticator: Awaited<ReturnType<typeof virtualAuthenticator>>;
  let link: string;
  let registrationId: string;
  let qrLink: string;
  let userId: string;
  const email = freshEmail('register-phone');
  const alias = `alias-${Date.now().toString(36)}`;
  const startedAt = Date.now();

  beforeAll(async () => {
    env = await startRegistrationPlatform('registration-phone');
    browser = await launchBrowser();
    config = await rpConfig(env.platform.url, env.demo.clientId, env.demo.clientSecret);
    // The desktop has an authenticator too, so that a passkey created there (not on the phone) would show.
    ({
      context: desktop,
      callbacks: desktopCallbacks,
      page: desktopPage,
      authenticator: desktopAuthenticator,
    } = await passkeyBrowser(await desktopContext(browser)));
    ({
      context: phone,
      callbacks: phoneCallbacks,
      page: phonePage,
      authenticator: phoneAuthenticator,
    } = await passkeyBrowser(await phoneContext(browser)));
    // The identify page's passkey autofill would start a ceremony of its own; the button's is the one here.
    await withoutPasskeyAutofill(phone);
  });
  afterAll(async () => {
    await desktop?.close().catch(() => undefined);
    await phone?.close().catch(() => undefined);
    await browser?.close();
    await env?.stop();
  });

  const check = async (page: Page, name: string) => {
    await checkPage(page, `registration-phone-${name}`, { excludeUrl: webAuthnBundle });
    // Phone-sized pages: nothing wider than the screen.
    if (page === phonePage) {
      const overflow = await page.evaluate('document.documentElement.scrollWidth - window.innerWidth');
      assert.ok(Number(overflow) <= 0, `${name} scrolls sideways by ${overflow}px`);
    }
  };

  it('send-activation (with a secondaryCompletionMessage) answers success and the SMTP server receives the link', async () => {
    link = await sendActivation(env, {
      userEmail: email,
      scopes: ['email'],
      verifications: ['ts.svc.iac.email'],
      alias: { type: 'alias', value: alias },
      customMessage: 'Welcome to the demo shop.',
      secondaryCompletionMessage: secondaryMessage,
      completionMessage: { text: 'Your demo account is ready.' },
    });
  });

  it('the desktop takes the link → Continue → Use my phone: a QR page whose QR and text carry the same one-time link', async () => {
    await desktopPage.goto(link);
    await desktopPage.getByRole('heading', { name: 'Create your account' }).waitFor();
    await desktopPage.getByRole('button', { name: 'Continue' }).click();
    await desktopPage.getByRole('button', { name: 'Create a passkey' }).waitFor();
    registrationId = /^\/registration\/([0-9a-f-]{36})$/.exec(new URL(desktopPage.url()).pathname)?.[1] ?? '';
    assert.ok(registrationId, `a registration page: ${desktopPage.url()}`);
    await check(desktopPage, 'desktop-passkey');
    await desktopPage.getByRole('button', { name: 'Use my phone' }).click();

    await desktopPage.getByRole('heading', { name: 'Create your passkey on your phone' }).waitFor();
    const qr = desktopPage.getByRole('img', { name: 'QR code' });
    const textLink = desktopPage.getByRole('link', { name: /\/register\/m\// });
    qrLink = new URL((await textLink.getAttribute('href')) ?? '', desktopPage.url()).href;
    assert.match(new URL(qrLink).pathname, /^\/register\/m\/[\w-]{43}$/);
    assert.equal(await textLink.getAttribute('data-mobile-link'), '');
    assert.equal(await textLink.innerText(), qrLink);
    // What a phone's camera reads off the screen is the same link.
    assert.equal(await readQrFromScreenshot(desktopPage, qr), qrLink);
  });

  it('the phone opens the link and creates the passkey (no Use my phone, no Not now there); the phone shows the completion with the secondary message', async () => {
    await phonePage.goto(qrLink);
    assert.equal(new URL(phonePage.url()).pathname, `/registration/${registrationId}/phone`);
    // Checked once the phone has the link, so that the check's time does not eat into the QR's 30 s.
    await check(desktopPage, 'desktop-qr');
    const create = phonePage.getByRole('button', { name: 'Create a passkey' });
    await create.waitFor();
    assert.equal(await phonePage.getByRole('button', { name: 'Use my phone' }).count(), 0);
    assert.equal(await phonePage.getByRole('button', { name: 'Not now' }).count(), 0);
    await check(phonePage, 'phone-passkey');
    await create.click();

    await phonePage.getByRole('heading', { name: 'You are registered' }).waitFor();
    assert.equal(new URL(phonePage.url()).pathname, `/registration/${registrationId}/phone/complete`);
    assert.ok(await phonePage.getByText(secondaryMessage).isVisible());
    assert.ok(await phonePage.getByText('Your computer continues by itself.', { exact: false }).isVisible());
    assert.equal(await phonePage.getByRole('link', { name: /^Continue to / }).count(), 0);
    await check(phonePage, 'phone-complete');

    const created = await phoneAuthenticator.credentials();
    assert.equal(created.length, 1);
    assert.equal(created[0]!.isResidentCredential, true);
    assert.deepEqual(await desktopAuthenticator.credentials(), []);
  });

  it('the desktop tab continues by itself to its completion page (without the secondary message) and on to the app', async () => {
    await desktopPage.waitForURL(`${env.platform.url}/registration/${registrationId}/complete`, {
      timeout: 30_000,
    });
    await desktopPage.getByRole('heading', { name: 'You are registered' }).waitFor();
    assert.ok(await desktopPage.getByText('Your demo account is ready.').isVisible());
    assert.equal(await desktopPage.getByText(secondaryMessage).count(), 0);
    await check(desktopPage, 'desktop-complete');
    const back = desktopPage.getByRole('link', { name: /^Continue to / });
    assert.equal(await back.getAttribute('href'), registeredUri);
    const landed = desktopCallbacks.next();
    await back.click();
    assert.equal(await landed, registeredUri);
  });

  it('a second open of the QR link is refused: "Link not valid", 410', async () => {
    const again = await phoneContext(browser);
    try {
      const page = await again.newPage();
      const res = await page.goto(qrLink);
      assert.equal(res?.status(), 410);
      await page.getByRole('heading', { name: 'Link not valid' }).waitFor();
      await check(page, 'link-invalid');
    } finally {
      await again.close();
    }
  });

  it('the phone signs in with that passkey (GET /authorize as the RP): the ID token’s sub is the registered user’s', async () => {
    const conn = await connectMongo(env.mongoUrl, { appName: 'registration-phone-e2e' });
    try {
      const user = await conn.collection('users').findOne({ email });
      assert.ok(user, `a user for ${email}`);
      userId = String(user.userId);
    } finally {
      await conn.close();
    }
    const req = await authorizationRequest(config, env.demo.redirectUri, {
      scope: 'openid',
      prompt: 'login',
    });
    await phonePage.goto(req.url.href);
    const callback = phoneCallbacks.next();
    await phonePage.getByRole('button', { name: 'Use a passkey' }).click();
    const url = await callback;
    const claims = await redeemCallback(config, url, req);
    assert.equal(claims.sub, userId);
    assert.deepEqual(claims.amr, ['ts.svc.mfca']);
    // The passkey used is the phone's one (its user handle is the same user).
    const [passkey] = await phoneAuthenticator.credentials();
    assert.equal(Buffer.from(passkey?.userHandle ?? '', 'base64').toString(), userId);
  });

  it('activity-logs keeps the registration as one enrollment record: QR generated, scanned, the phone registered, completed', async () => {
    const logs = demoActivityLogs(env, startedAt);
    // Fails unless exactly one record has the registration's id.
    const record = await logs.flow(registrationId, ['custodian_registration_completed']);
    assert.deepEqual([record.flowType, record.status, record.userId], ['enrollment', 'success', userId]);
    const actions = actionsOf(record);
    for (const action of [
      'custodian_registration_started',
      'email_verification_success',
      'new_qr_generated',
      'user_scan_qr',
      'new_device_registered',
      'custodian_registration_completed',
    ]) {
      assert.ok(actions.includes(action), `${action} in [${actions}]`);
    }
    assert.equal(
      (await logs.query({ userId })).filter((r) => r.flowType === 'enrollment').length,
      1,
      'one enrollment record for the user',
    );
  });
});
