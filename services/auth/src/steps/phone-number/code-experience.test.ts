import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { visibleText } from '../../pages/page-fixtures';
import { smsOutbox } from '../../testing/ciba';
import { startAuth } from '../../testing/hosted-test-client';
import { emailProvenForPhone } from '../../testing/phone-sign-in';
import { startedForSuite } from '../../testing/suite';

type Auth = Awaited<ReturnType<typeof startAuth>>;
const wrongFor = (code: string) => (code === '000000' ? '000001' : '000000');
const formActions = (html: string) =>
  [...html.matchAll(/<form method="post" action="([^"]+)"/g)].map((m) => m[1]);

/** The SMS code page as the email code page is since issue 25: lockout, Send a new code, the field's script. */
describe('the SMS code page after errors (parity with the email code page)', () => {
  const sms = smsOutbox();
  // Two texts per number a window: the second send uses the limit up, so the resend timer shows.
  const auth = startedForSuite(() =>
    startAuth({
      sms,
      env: { SESAME_MAILS_PER_ADDRESS: '2', SESAME_MAIL_WINDOW_S: '600', SESAME_MAILS_PER_IP: '100000' },
    }),
  );
  const smsCodes = (to: string) =>
    sms
      .list()
      .filter((m) => m.to === to)
      .map((m) => /\b(\d{6})\b/.exec(m.text)?.[1] ?? '');

  /** /authorize asking for a verified phone, the email code, then the number: at the SMS code page. */
  async function atSmsCode(a: Auth, email: string, phone: string) {
    const { browser, csrf, flow } = await emailProvenForPhone(a, email);
    const texted = await browser.request(`${flow}/phone`, { form: { csrf, phone } });
    assert.equal(texted.location, `${flow}/phone-code`);
    return { browser, csrf, flow };
  }

  it('after the last wrong code says "Too many attempts", also for the right code, and offers Send a new code first', async () => {
    const phone = '+41795550301';
    const { browser, csrf, flow } = await atSmsCode(auth, 'sms-locked@example.com', phone);
    const [code = ''] = smsCodes(phone);
    for (let i = 0; i < 4; i++) {
      const wrong = await browser.request(`${flow}/phone-code`, { form: { csrf, code: wrongFor(code) } });
      assert.match(visibleText(wrong.body), /That code is not right/);
    }
    const last = await browser.request(`${flow}/phone-code`, { form: { csrf, code: wrongFor(code) } });
    assert.equal(last.status, 400);
    assert.match(
      visibleText(last.body),
      /Too many attempts\. Request a new code\. The code you were sent no longer works\./,
    );
    assert.doesNotMatch(last.body, /expired/);
    const right = await browser.request(`${flow}/phone-code`, { form: { csrf, code } });
    assert.equal(right.status, 400, 'the dead code stays dead');
    assert.match(visibleText(right.body), /Too many attempts\. Request a new code\./);
    // Send a new code is the first form of the page, as a primary button, once.
    assert.equal(formActions(right.body)[0], `${flow}/phone-code/resend`);
    assert.equal(right.body.match(/Send a new code<\/button>/g)?.length, 1);
    assert.match(right.body, /<button type="submit">Send a new code<\/button>/);
  });

  it('Send a new code texts a new code that verifies the number', async () => {
    const phone = '+41795550302';
    const { browser, csrf, flow } = await atSmsCode(auth, 'sms-again@example.com', phone);
    const [old = ''] = smsCodes(phone);
    for (let i = 0; i < 5; i++) await browser.request(`${flow}/phone-code`, { form: { csrf, code: 'abc' } });
    const resent = await browser.request(`${flow}/phone-code/resend`, { form: { csrf } });
    assert.equal(resent.status, 200);
    assert.match(visibleText(resent.body), /We sent a new code\. Check your text messages\./);
    const codes = smsCodes(phone);
    assert.equal(codes.length, 2);
    const fresh = codes.find((c) => c !== old) ?? '';
    const verified = await browser.request(`${flow}/phone-code`, { form: { csrf, code: fresh } });
    assert.equal(verified.location, `${flow}/continue`);
  });

  it('a code sent twice (the page submitting itself as the person clicks Verify) goes on, not to an error', async () => {
    const phone = '+41795550306';
    const { browser, csrf, flow } = await atSmsCode(auth, 'sms-twice@example.com', phone);
    const [code = ''] = smsCodes(phone);
    const first = await browser.request(`${flow}/phone-code`, { form: { csrf, code } });
    assert.deepEqual([first.status, first.location], [303, `${flow}/continue`]);
    const again = await browser.request(`${flow}/phone-code`, { form: { csrf, code } });
    assert.deepEqual([again.status, again.location], [303, `${flow}/continue`]);
  });

  it('shows the real wait before another code may be sent, and refuses a resend within it with the timer', async () => {
    const phone = '+41795550303';
    const { browser, csrf, flow } = await atSmsCode(auth, 'sms-timer@example.com', phone);
    const page = await browser.request(`${flow}/phone-code`);
    assert.doesNotMatch(page.body, /data-resend-wait/, 'one more text is allowed: no timer');
    assert.match(page.body, /<button type="submit" class="secondary">Send a new code<\/button>/);
    const resent = await browser.request(`${flow}/phone-code/resend`, { form: { csrf } });
    assert.equal(resent.status, 200);
    const wait = Number(/data-resend-wait="(\d+)"/.exec(resent.body)?.[1]);
    assert.ok(wait > 590 && wait <= 600, `the window's remaining time, got ${wait}`);
    assert.match(visibleText(resent.body), /You can send a new code in (9:59|10:00)\./);
    assert.match(resent.body, /<button type="submit" class="secondary" disabled>Send a new code<\/button>/);
    const refused = await browser.request(`${flow}/phone-code/resend`, { form: { csrf } });
    assert.equal(refused.status, 429);
    assert.match(visibleText(refused.body), /Too many codes sent/);
    assert.match(refused.body, /data-resend-wait="\d+"/);
    assert.match(refused.body, /Enter the code from the text message/, 'still the SMS code page');
    assert.equal(smsCodes(phone).length, 2, 'no third text');
  });

  it('marks the code field for one-time-code autofill and the numeric keyboard, with the paste/auto-submit script', async () => {
    const { browser, flow } = await atSmsCode(auth, 'sms-field@example.com', '+41795550304');
    const page = await browser.request(`${flow}/phone-code`);
    assert.match(page.body, /<form method="post" action="[^"]+\/phone-code" data-code-form>/);
    assert.match(page.body, /inputmode="numeric" autocomplete="one-time-code"/);
    assert.match(page.body, /<script src="\/assets\/code-input\.[0-9a-f]{10}\.js" defer><\/script>/);
  });

  it('Send a new code needs the CSRF token', async () => {
    const { browser, flow } = await atSmsCode(auth, 'sms-csrf@example.com', '+41795550305');
    const forged = await browser.request(`${flow}/phone-code/resend`, { form: { csrf: 'wrong' } });
    assert.equal(forged.status, 403);
    assert.equal(smsCodes('+41795550305').length, 1);
  });
});
