import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it, jest } from '@jest/globals';
import type { Page } from '@sesame/testing/browser';
import { KINDS, experienceSuite, pasteCode } from './experience-suite';
import { authorizationRequest, freshEmail, mailedCode } from './hosted-signin-support';

/**
 * The experience fixes of issue 25 in Debian's chromium against the six services on the real servers, each on a
 * desktop (light scheme) and on a phone-sized context (dark scheme): the lockout after the last wrong code, the
 * code field (paste with a space, submit by itself), the phone's "Use another device", the QR page's countdown,
 * Show a new code and Cancel, a way forward from the error pages, the hosted 404, consent titles and Not you?.
 * Every page passes checkPage (axe, 100 KB, screenshot).
 */
jest.setTimeout(180_000);

const PAYMENT = JSON.stringify({
  id_token: {
    svc_psd2_transaction: {
      value: { display_data: { payee: 'ACME Energy', payment_amount: '€ 42.00', payment_method: 'Visa' } },
    },
  },
});

describe('the experience fixes in a real browser (issue 25)', () => {
  const suite = experienceSuite('hosted-experience', () => ({ SESAME_MAILS_PER_IP: '100000' }));
  const { open, check } = suite;

  /** The sign-in page of a new authorization request; the request (state, PKCE) for the callback. */
  async function signInPage(page: Page, extra: Record<string, string> = {}) {
    const req = await authorizationRequest(suite.config, suite.env.demo.redirectUri, extra);
    await page.goto(req.url.href);
    return req;
  }

  /** Types `email` and continues to the code page; the time the code was sent after. */
  async function toCodePage(page: Page, email: string) {
    const sentAfter = new Date();
    await page.getByLabel('Email address').fill(email);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByLabel('Verification code').waitFor();
    return sentAfter;
  }

  /** Fills the code field and waits for the page to have submitted it by itself (no Verify click). */
  async function fillAndWaitForSubmit(page: Page, code: string) {
    const posted = page.waitForResponse((r) => r.request().method() === 'POST' && /\/code$/.test(r.url()));
    await page.getByLabel('Verification code').fill(code);
    await posted;
    await page.waitForLoadState('load');
  }

  for (const kind of KINDS) {
    it(`${kind}: after the last wrong code says "Too many attempts" and offers a new code; a pasted code with a space signs in by itself`, async () => {
      const { page, callbacks } = await open(kind);
      const email = freshEmail(`lockout-${kind}`);
      const req = await signInPage(page);
      await check(page, `${kind}-identify`);
      const sentAfter = await toCodePage(page, email);
      const code = await mailedCode(email, sentAfter);
      const wrong = code === '000000' ? '000001' : '000000';
      const field = page.getByLabel('Verification code');
      assert.equal(await field.getAttribute('autocomplete'), 'one-time-code');
      assert.equal(await field.getAttribute('inputmode'), 'numeric');
      for (let i = 1; i <= 5; i++) await fillAndWaitForSubmit(page, wrong);
      const alert = page.locator('#code-error');
      assert.match(
        (await alert.textContent()) ?? '',
        /Too many attempts\. Request a new code\. The code you were sent no longer works\./,
      );
      assert.doesNotMatch((await page.locator('main').textContent()) ?? '', /expired/);
      await check(page, `${kind}-locked`);
      // The right code after the lockout is refused with the same words.
      await fillAndWaitForSubmit(page, code);
      assert.match((await alert.textContent()) ?? '', /Too many attempts/);
      const resentAfter = new Date();
      await page.getByRole('button', { name: 'Send a new code' }).click();
      await page.getByText('We sent a new code. Check your inbox.').waitFor();
      const fresh = await mailedCode(email, resentAfter);
      await pasteCode(page, `${fresh.slice(0, 3)} ${fresh.slice(3)}`);
      await page.getByRole('heading', { name: 'Allow Demo app to see your email address' }).waitFor();
      await check(page, `${kind}-consent`);
      const approved = callbacks.next();
      await page.getByRole('button', { name: 'Approve' }).click();
      const callback = new URL(await approved);
      assert.equal(callback.searchParams.get('state'), req.state);
      assert.ok(callback.searchParams.get('code'));
    });
  }

  it("desktop: a code typed before the page's script arrived (a slow network) still submits itself", async () => {
    const { page } = await open('desktop');
    await signInPage(page);
    const email = freshEmail('slow-script');
    // The code field's script is held back until the code is in the field.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(/\/assets\/code-input\.[0-9a-f]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    const sentAfter = new Date();
    await page.getByLabel('Email address').fill(email);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page
      .getByLabel('Verification code')
      .fill(await mailedCode(email, sentAfter), { noWaitAfter: true });
    const posted = page.waitForResponse((r) => r.request().method() === 'POST' && /\/code$/.test(r.url()));
    release();
    await posted;
    await page.getByRole('heading', { name: 'Allow Demo app to see your email address' }).waitFor();
  });

  it('phone: desktop to mobile is a small "Use another device", and long addresses wrap within the screen', async () => {
    const { page } = await open('phone');
    await signInPage(page);
    assert.equal(await page.getByRole('button', { name: 'Use my phone' }).count(), 0);
    await page.getByRole('button', { name: 'Use another device' }).waitFor();
    const email = `a-very-long-local-part-that-goes-on-and-on-${Date.now()}@${'subdomain.'.repeat(4)}example.com`;
    await toCodePage(page, email);
    const overflow = Number(await page.evaluate('document.documentElement.scrollWidth - window.innerWidth'));
    assert.ok(overflow <= 0, `the code page is ${overflow} px wider than the phone`);
    await check(page, 'phone-long-address');
  });

  it('desktop: the QR page counts down and offers Show a new code and Cancel', async () => {
    const { page } = await open('desktop');
    await signInPage(page);
    await page.getByRole('button', { name: 'Use my phone' }).click();
    const countdown = page.locator('[data-open-by]');
    await countdown.waitFor();
    const first = Number(/\d+/.exec((await countdown.textContent()) ?? '')?.[0]);
    await page.waitForTimeout(2100);
    const later = Number(/\d+/.exec((await countdown.textContent()) ?? '')?.[0]);
    assert.ok(first <= 30 && later < first, `counts down: ${first} then ${later}`);
    await check(page, 'desktop-qr');
    const link = await page.locator('[data-mobile-link]').getAttribute('href');
    await page.getByRole('button', { name: 'Show a new code' }).click();
    await countdown.waitFor();
    const newLink = await page.locator('[data-mobile-link]').getAttribute('href');
    assert.ok(newLink && newLink !== link, 'a new one-time link');
    assert.match((await countdown.textContent()) ?? '', /\b(30|29) seconds left/);
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.getByRole('button', { name: 'Use my phone' }).waitFor();
  });

  for (const kind of KINDS) {
    it(`${kind}: a flow opened in another browser offers Back to Demo app, which ends at the app with access_denied`, async () => {
      const first = await open('desktop');
      await signInPage(first.page);
      // The sign-in page is served at /authorize; its form names the flow (/flow/<id>/email).
      const action = await first.page.locator('form#sign-in').getAttribute('action');
      const flowUrl = new URL((action ?? '').replace(/\/email$/, ''), suite.env.platform.url).href;
      const { page, callbacks } = await open(kind);
      await page.goto(flowUrl);
      await page.getByRole('heading', { name: 'Different browser' }).waitFor();
      await check(page, `${kind}-different-browser`);
      const back = callbacks.next();
      await page.getByRole('link', { name: 'Back to Demo app' }).click();
      const callback = new URL(await back);
      assert.equal(callback.searchParams.get('error'), 'access_denied');
      assert.equal(callback.searchParams.get('iss'), suite.env.platform.url);
      assert.ok(callback.searchParams.get('state'));
    });

    it(`${kind}: an unknown path is the hosted "Page not found"`, async () => {
      const { page } = await open(kind);
      const response = await page.goto(`${suite.env.platform.url}/no/such/page`);
      assert.equal(response?.status(), 404);
      await page.getByRole('heading', { name: 'Page not found' }).waitFor();
      await check(page, `${kind}-not-found`);
    });
  }

  it('desktop: a payment after single sign-on says what it asks, lists no granted scope again, and Not you? starts afresh', async () => {
    const { page, callbacks } = await open('desktop');
    const email = freshEmail('payer');
    await signInPage(page);
    const sentAfter = await toCodePage(page, email);
    await page.getByLabel('Verification code').fill(await mailedCode(email, sentAfter));
    await page.getByRole('button', { name: 'Verify' }).click();
    const approved = callbacks.next();
    await page.getByRole('button', { name: 'Approve' }).click();
    await approved;
    await page.waitForURL(/^http:\/\/localhost:3000\/callback/);
    await signInPage(page, { claims: PAYMENT });
    await page.getByRole('heading', { name: 'Approve a payment to ACME Energy' }).waitFor();
    assert.equal(await page.getByText('Your email address').count(), 0, 'email was granted before');
    await check(page, 'desktop-payment');
    await page.getByRole('button', { name: 'Not you?' }).click();
    await page.getByLabel('Email address').waitFor();
    assert.equal(await page.getByLabel('Email address').inputValue(), '');
  });
});
