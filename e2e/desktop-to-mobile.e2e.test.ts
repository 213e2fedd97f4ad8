import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it, jest } from '@jest/globals';
import {
  type Browser,
  type BrowserContext,
  type Page,
  checkPage,
  desktopContext,
  launchBrowser,
  phoneContext,
  readQrFromScreenshot,
  virtualAuthenticator,
} from '@sesame/testing/browser';
import type * as oidc from 'openid-client';
import {
  type ActivityLogRecord,
  actionsOf,
  authorizationRequest,
  catchCallbacks,
  demoActivityLogs,
  freshEmail,
  mailedCode,
  redeemCallback,
  rpConfig,
  withoutPasskeyAutofill,
} from './hosted-signin-support';
import { startRealPlatform } from './token-fixtures';

/**
 * Desktop to mobile in Debian's chromium against the six services on the real servers, with the default QR open
 * time (30 s, spec 8): a desktop context shows the QR; a phone-sized context (412×915, mobile User-Agent) with its
 * own DevTools virtual authenticator (CTAP2, internal, resident keys, UV) takes the link the page shows, signs in
 * (an email code and a new passkey, then that passkey), and the desktop tab continues to the RP by itself. The
 * RP (openid-client) verifies ID tokens with amr ts.svc.ama and two devices in svc_info; activity-logs shows one
 * record per flow. A QR left unopened turns after 30 s into "The code expired" (a new code, or Back to <app>:
 * unsupported_browser).
 */
jest.setTimeout(240_000);

const webAuthnBundle = /\/assets\/passkeys\.[0-9a-f]{10}\.js/;
type IdClaims = oidc.IDToken & { svc_info: Record<string, Record<string, string>> };

describe('desktop to mobile in a real browser', () => {
  let env: Awaited<ReturnType<typeof startRealPlatform>>;
  let browser: Browser;
  let config: oidc.Configuration;
  let desktop: BrowserContext;
  let phone: BrowserContext;
  let desktopPage: Page;
  let phonePage: Page;
  let callbacks: Awaited<ReturnType<typeof catchCallbacks>>;
  let logs: ReturnType<typeof demoActivityLogs>;
  const email = freshEmail('mobile');
  const pageBytes: Record<string, number> = {};

  beforeAll(async () => {
    const since = Date.now();
    env = await startRealPlatform('desktop-to-mobile', {
      smtp: true,
      env: { SESAME_MAILS_PER_IP: '100000' },
    });
    browser = await launchBrowser();
    config = await rpConfig(env.platform.url, env.demo.clientId, env.demo.clientSecret);
    logs = demoActivityLogs(env, since);
    desktop = await desktopContext(browser);
    callbacks = await catchCallbacks(desktop);
    desktopPage = await desktop.newPage();
    phone = await phoneContext(browser);
    phonePage = await phone.newPage();
    await virtualAuthenticator(phonePage);
    // The phone's passkey autofill would race the button's ceremony: only the button's runs here.
    await withoutPasskeyAutofill(phone);
  });
  afterAll(async () => {
    await desktop?.close().catch(() => undefined);
    await phone?.close().catch(() => undefined);
    await browser?.close();
    await env?.stop();
    console.log(`desktop-to-mobile page bytes: ${JSON.stringify(pageBytes)}`);
  });

  const check = async (page: Page, name: string) => {
    const result = await checkPage(page, `desktop-to-mobile-${name}`, { excludeUrl: webAuthnBundle });
    pageBytes[name] = result.bytes;
    // Phone-sized: nothing wider than the screen.
    const overflow = await page.evaluate('document.documentElement.scrollWidth - window.innerWidth');
    assert.ok(Number(overflow) <= 0, `${name} scrolls sideways by ${overflow}px`);
  };
  const request = () =>
    authorizationRequest(config, env.demo.redirectUri, { scope: 'openid', prompt: 'login' });
  const flowIdOf = (page: Page) => /^\/flow\/([\w-]+)/.exec(new URL(page.url()).pathname)?.[1] ?? '';

  /** The desktop at the QR page after "Use my phone": the flow id and the link as the page shows it. */
  async function desktopAtQr(req: Awaited<ReturnType<typeof request>>) {
    await desktopPage.goto(req.url.href);
    await desktopPage.getByRole('button', { name: 'Use my phone' }).click();
    const qr = desktopPage.getByRole('img', { name: 'QR code' });
    await qr.waitFor();
    const textLink = desktopPage.getByRole('link', { name: /\/m\// });
    const link = new URL((await textLink.getAttribute('href')) ?? '', desktopPage.url()).href;
    assert.equal(await textLink.innerText(), link);
    // What a phone's camera reads off the screen is the same link.
    assert.equal(await readQrFromScreenshot(desktopPage, qr), link);
    // And the number the phone will ask for (number matching).
    const code = (await desktopPage.locator('[data-match-code]').innerText()).trim();
    assert.match(code, /^\d{2}$/);
    return { flowId: flowIdOf(desktopPage), link, code };
  }

  /** The phone's first page: where the sign-in continues, and the three numbers; it picks the desktop's. */
  async function phonePicks(code: string, name?: string) {
    await phonePage.getByText('This sign-in will continue on another device').waitFor();
    if (name) await check(phonePage, name);
    await phonePage.getByRole('button', { name: code, exact: true }).click();
  }

  /** The phone finishes: "you can go back to your computer"; the desktop lands on the RP; the RP redeems. */
  async function finish(req: Awaited<ReturnType<typeof request>>, callback: Promise<string>, name?: string) {
    await phonePage.getByRole('heading', { name: 'You can go back to your computer' }).waitFor();
    if (name) await check(phonePage, name);
    const claims = (await redeemCallback(config, await callback, req)) as IdClaims;
    const { originating_device: from, authenticating_device: by } = claims.svc_info;
    assert.deepEqual([from?.os_type, by?.os_type], ['Linux', 'Android']);
    assert.notDeepEqual(from, by);
    return claims;
  }

  type Logged = ActivityLogRecord & { desktopLoginDecision?: string };
  /** The flow's one record; a 503 (logs "temporarily unavailable; retry later" on a loaded machine) is retried. */
  async function record(flowId: string, until = ['auth_complete']): Promise<Logged> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await logs.flow(flowId, until);
      } catch (err) {
        if (attempt >= 4 || !/activity-logs: 503/.test(String(err))) throw err;
        await new Promise((r) => setTimeout(r, 3000));
      }
    }
  }

  it('the phone signs in with an email code and creates a passkey; the desktop continues: amr ts.svc.ama + ts.svc.email_otp, two devices', async () => {
    const req = await request();
    const { flowId, link, code } = await desktopAtQr(req);
    const callback = callbacks.next(90_000);
    await phonePage.goto(link);
    // Checked once the phone has the link, so that the check's time does not eat into the 30 s.
    await check(desktopPage, 'qr');
    await phonePicks(code, 'phone-number-match');
    await phonePage.getByLabel('Email address').waitFor();
    await check(phonePage, 'phone-identify');
    const sentAfter = new Date();
    await phonePage.getByLabel('Email address').fill(email);
    await phonePage.getByRole('button', { name: 'Continue' }).click();
    await phonePage.getByLabel('Verification code').fill(await mailedCode(email, sentAfter));
    await phonePage.getByRole('button', { name: 'Verify' }).click();
    await phonePage.getByRole('button', { name: 'Create a passkey' }).click();
    const claims = await finish(req, callback, 'phone-done');
    assert.deepEqual(claims.amr, ['ts.svc.ama', 'ts.svc.email_otp']);

    const logged = await record(flowId);
    assert.deepEqual(
      [logged.status, logged.authMethodType, logged.desktopLoginDecision, logged.userId],
      ['success', 'email_otp', 'use_mobile', claims.sub],
    );
    for (const action of [
      'new_qr_generated',
      'user_scan_qr',
      'auth_start_ama',
      'desktop_biometrics_registered',
    ])
      assert.ok(actionsOf(logged).includes(action), `${action} in [${actionsOf(logged)}]`);
  });

  it('the phone signs in with its passkey: amr ts.svc.ama + ts.svc.mfca, one activity record with fido2', async () => {
    const req = await request();
    const { flowId, link, code } = await desktopAtQr(req);
    const callback = callbacks.next(90_000);
    await phonePage.goto(link);
    await phonePicks(code);
    await phonePage.getByRole('button', { name: 'Use a passkey' }).click();
    const claims = await finish(req, callback);
    assert.deepEqual(claims.amr, ['ts.svc.ama', 'ts.svc.mfca']);
    const logged = await record(flowId);
    assert.deepEqual([logged.status, logged.authMethodType], ['success', 'fido2']);
    assert.equal((await logs.query()).filter((r) => r.id === flowId).length, 1);
  });

  it('a QR left unopened for 30 s turns into "The code expired": Show a new code, then Back to <app> ends with unsupported_browser, state and iss', async () => {
    const req = await request();
    const callbacksBefore = callbacks.seen.length;
    const clickedAt = Date.now(); // the QR is drawn after the click
    const { flowId, link } = await desktopAtQr(req);
    const expired = desktopPage.getByRole('heading', { name: 'The code expired' });
    await expired.waitFor({ timeout: 60_000 });
    const waited = Date.now() - clickedAt;
    assert.ok(waited >= 30_000, `expired after ${waited} ms`);
    assert.equal(
      new URL(desktopPage.url()).pathname,
      `/flow/${flowId}`,
      'still on the sign-in, not at the RP',
    );
    assert.equal(callbacks.seen.length, callbacksBefore, 'the RP got nothing');
    await check(desktopPage, 'desktop-qr-expired');

    // Show a new code: a new one-time link, counted down again; the expired one stays dead.
    await desktopPage.getByRole('button', { name: 'Show a new code' }).click();
    const textLink = desktopPage.getByRole('link', { name: /\/m\// });
    await textLink.waitFor();
    const fresh = new URL((await textLink.getAttribute('href')) ?? '', desktopPage.url()).href;
    assert.notEqual(fresh, link);
    await desktopPage.getByText(/seconds left to scan this code/).waitFor();

    // It runs out too; this time the person goes back to the app.
    await expired.waitFor({ timeout: 60_000 });
    assert.equal(callbacks.seen.length, callbacksBefore, 'the RP still got nothing');
    const callback = callbacks.next(10_000);
    await desktopPage.getByRole('button', { name: /^Back to / }).click();
    const end = new URL(await callback);
    assert.deepEqual(
      [end.searchParams.get('error'), end.searchParams.get('state'), end.searchParams.get('iss')],
      ['unsupported_browser', req.state, env.platform.url],
    );
    assert.equal(end.searchParams.get('error_description'), 'the QR link was not opened within 30 seconds');
    const logged = await record(flowId, ['device_auth']);
    assert.equal(logged.status, 'failure');
  });
});
