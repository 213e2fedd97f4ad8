import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it, jest } from '@jest/globals';
import type { Page } from '@sesame/testing/browser';
import { recorder } from './ciba-support';
import { KINDS, experienceSuite, pasteCode } from './experience-suite';
import { authorizationRequest, freshEmail, mailedCode } from './hosted-signin-support';

/**
 * The SMS code page (acr_values=ts.svc.iac.phone_number) as the email code page is since issue 25, in Debian's
 * chromium against the six services on the real servers, on a desktop (light) and a phone-sized context (dark):
 * one-time-code autofill and the numeric keyboard, a code submitted by itself at six digits, "Too many attempts.
 * Request a new code." after the last wrong code (also for the right code after it), Send a new code, and a
 * pasted code with a space. Every page passes checkPage (axe, 100 KB, screenshot).
 */
jest.setTimeout(180_000);

describe('the SMS code page in a real browser (issue 25, parity with the email code page)', () => {
  let sms: Awaited<ReturnType<typeof recorder>>;
  beforeAll(async () => {
    sms = await recorder((r) => ({ status: 201, json: { sid: `SM${r.body.length}` } }));
  });
  afterAll(async () => {
    await sms?.close();
  });
  const suite = experienceSuite('sms-code-experience', () => ({
    // Every browser here is 127.0.0.1 and the per-IP send throttle lives in the shared Redis across runs.
    SESAME_MAILS_PER_IP: '100000',
    SESAME_SMS_URL: `${sms.url}/2010-04-01/Accounts/AC1/Messages.json`,
    SESAME_SMS_FROM: '+15005550006',
    SESAME_SMS_USER: 'AC1',
    SESAME_SMS_PASSWORD: 'sms-token',
  }));
  const { open, check } = suite;

  /** The code of the next SMS the stand-in provider receives after `before` messages, from its form Body. */
  async function smsCode(before: number): Promise<string> {
    const [text] = (await sms.count(before + 1)).slice(before);
    return /\b(\d{6})\b/.exec(new URLSearchParams(text?.body ?? '').get('Body') ?? '')?.[1] ?? '';
  }

  /** Fills the SMS code field and waits for the page to have submitted it by itself (no Verify click). */
  async function fillAndWaitForSubmit(page: Page, code: string) {
    const posted = page.waitForResponse(
      (r) => r.request().method() === 'POST' && /\/phone-code$/.test(r.url()),
    );
    // The next document's load, not the current one's: the answer to the POST is a new page at the same URL.
    const loaded = page.waitForEvent('load');
    await page.getByLabel('SMS code').fill(code);
    await posted;
    await loaded;
  }

  KINDS.forEach((kind, i) => {
    it(`${kind}: after the last wrong SMS code says "Too many attempts" and offers Send a new code; a pasted code signs in by itself`, async () => {
      const { page, callbacks } = await open(kind);
      // A number of its own per run: the per-number send throttle lives in the shared Redis.
      const number = `+4179${String(Date.now() + i).slice(-7)}`;
      const email = freshEmail(`sms-lockout-${kind}`);
      const req = await authorizationRequest(suite.config, suite.env.demo.redirectUri, {
        scope: 'openid email phone',
        acr_values: 'ts.svc.iac.phone_number',
      });
      await page.goto(req.url.href);
      const sentAfter = new Date();
      await page.getByLabel('Email address').fill(email);
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByLabel('Verification code').fill(await mailedCode(email, sentAfter));
      await page.getByLabel('Mobile number').waitFor();

      const before = sms.seen.length;
      await page.getByLabel('Mobile number').fill(number);
      await page.getByRole('button', { name: 'Send code' }).click();
      const field = page.getByLabel('SMS code');
      await field.waitFor();
      assert.equal(await field.getAttribute('autocomplete'), 'one-time-code');
      assert.equal(await field.getAttribute('inputmode'), 'numeric');
      const code = await smsCode(before);
      const wrong = code === '000000' ? '000001' : '000000';
      await page.waitForLoadState('load'); // the field's script runs before the load event
      for (let n = 1; n <= 5; n++) await fillAndWaitForSubmit(page, wrong);
      const alert = page.locator('#code-error');
      assert.match(
        (await alert.textContent()) ?? '',
        /Too many attempts\. Request a new code\. The code you were sent no longer works\./,
      );
      assert.doesNotMatch((await page.locator('main').textContent()) ?? '', /expired/);
      await check(page, `${kind}-sms-locked`);
      // The right code after the lockout is refused with the same words.
      await fillAndWaitForSubmit(page, code);
      assert.match((await alert.textContent()) ?? '', /Too many attempts/);

      const beforeResend = sms.seen.length;
      await page.getByRole('button', { name: 'Send a new code' }).click();
      await page.getByText('We sent a new code. Check your text messages.').waitFor();
      const fresh = await smsCode(beforeResend);
      await page.waitForLoadState('load');
      const callback = callbacks.next();
      await pasteCode(page, `${fresh.slice(0, 3)} ${fresh.slice(3)}`);
      const approve = page.getByRole('button', { name: 'Approve' });
      const first = await Promise.race([
        callback.then((url) => ({ url })),
        approve.waitFor({ timeout: 30_000 }).then(() => null),
      ]);
      if (!first) await approve.click();
      const end = new URL(first?.url ?? (await callback));
      assert.equal(end.searchParams.get('state'), req.state);
      assert.ok(end.searchParams.get('code'));
    });
  });
});
