import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { smsOutbox } from '../../testing/ciba';
import { TestBrowser, authorizePath, startAuth } from '../../testing/hosted-test-client';
import { emailProvenForPhone } from '../../testing/phone-sign-in';

type Auth = Awaited<ReturnType<typeof startAuth>>;

describe('phone verification (acr ts.svc.iac.phone_number)', () => {
  let auth: Auth;
  const sms = smsOutbox();
  beforeAll(async () => {
    auth = await startAuth({ sms });
  });
  afterAll(() => auth.stop());

  /** /authorize asking for a verified phone, then the email code: ends where the flow sends the browser next. */
  async function emailProven(email: string) {
    const { browser, csrf, flow, proven } = await emailProvenForPhone(auth, email);
    const next = await browser.request(proven.location);
    return { browser, csrf, flow, next };
  }
  const smsCode = (to: string) =>
    /\b(\d{6})\b/.exec(sms.list().find((m) => m.to === to)?.text ?? '')?.[1] ?? '';

  it('asks for the number after the email, texts a code, and puts the verified number in the claim set', async () => {
    const { browser, csrf, flow, next } = await emailProven('phone@example.com');
    assert.equal(next.status, 303);
    assert.equal(next.location, `${flow}/phone`);
    const page = await browser.request(next.location);
    assert.match(page.body, /Mobile number/);
    const sent = await browser.request(`${flow}/phone`, { form: { csrf, phone: '+41 79 123 45 67' } });
    assert.equal(sent.location, `${flow}/phone-code`);
    assert.match(
      sms.list()[0]?.text ?? '',
      /^\d{6} is your Shop verification code\. It expires in 10 minutes\.$/,
    );
    const codePage = await browser.request(sent.location);
    assert.match(codePage.body, /We sent a 6-digit code to \+41791234567/);
    // The right code ends at the RP through redirects: Chromium checks form-action on each of them.
    assert.match(
      codePage.headers.get('content-security-policy') ?? '',
      /form-action 'self' https:\/\/rp\.example(;|$)/,
    );
    const verified = await browser.request(`${flow}/phone-code`, {
      form: { csrf, code: smsCode('+41791234567') },
    });
    assert.equal(verified.location, `${flow}/continue`);
    const consent = await browser.request(verified.location);
    assert.match(consent.body, /Your phone number/);
    const done = await browser.request(`${flow}/consent`, { form: { csrf, decision: 'approve' } });
    assert.equal(done.status, 302);
    const claims = auth.issued.at(-1)?.claims;
    assert.equal(claims?.phoneNumber, '+41791234567');
    assert.equal(claims?.phoneNumberVerified, true);
    assert.equal(typeof claims?.phoneNumberUpdatedAt, 'number');
    assert.deepEqual(claims?.acr, ['ts.svc.iac.email', 'ts.svc.iac.phone_number']);
  });

  it('refuses a malformed number with 400 and sends nothing', async () => {
    const { browser, csrf, flow } = await emailProven('badnumber@example.com');
    const before = sms.list().length;
    const res = await browser.request(`${flow}/phone`, { form: { csrf, phone: '079 123' } });
    assert.equal(res.status, 400);
    assert.match(res.body, /role="alert"/);
    assert.equal(sms.list().length, before);
  });

  it('a wrong code is a 400 with the attempts left; the consent cannot be skipped meanwhile', async () => {
    const { browser, csrf, flow } = await emailProven('wrongsms@example.com');
    await browser.request(`${flow}/phone`, { form: { csrf, phone: '+41791234599' } });
    const right = smsCode('+41791234599');
    const wrong = right === '000000' ? '111111' : '000000';
    const res = await browser.request(`${flow}/phone-code`, { form: { csrf, code: wrong } });
    assert.equal(res.status, 400);
    assert.match(res.body, /4 attempts left/);
    assert.match(
      res.headers.get('content-security-policy') ?? '',
      /form-action 'self' https:\/\/rp\.example(;|$)/,
    );
    const skip = await browser.request(`${flow}/consent`, { form: { csrf, decision: 'approve' } });
    assert.equal(skip.status, 303, 'no completion before the phone is verified');
    assert.equal(auth.issued.filter((i) => i.claims?.email === 'wrongsms@example.com').length, 0);
  });
});

describe('phone verification when the SMS cannot be sent', () => {
  it('says so with 503 on the phone page', async () => {
    const auth = await startAuth({ sms: smsOutbox('unavailable') });
    try {
      const browser = auth.browser();
      const first = await browser.request(authorizePath({ acr_values: 'ts.svc.iac.phone_number' }));
      const csrf = TestBrowser.csrf(first.body);
      const sent = await browser.request(TestBrowser.formAction(first.body), {
        form: { csrf, email: 'nosms@example.com' },
      });
      await browser.request(`${sent.location}/code`, {
        form: { csrf, code: auth.codeFor('nosms@example.com') },
      });
      const res = await browser.request(`${sent.location}/phone`, { form: { csrf, phone: '+41791234567' } });
      assert.equal(res.status, 503);
      assert.match(res.body, /We could not send the text message just now/);
    } finally {
      await auth.stop();
    }
  });
});
