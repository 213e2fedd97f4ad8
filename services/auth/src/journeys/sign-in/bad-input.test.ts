import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { emailStep } from '../../testing/email-sign-in';
import { TestBrowser, authorizePath, startAuth } from '../../testing/hosted-test-client';
import { startedForSuite } from '../../testing/suite';

describe('hosted sign-in: an application name stored with CR/LF (before names were checked)', () => {
  const auth = startedForSuite(() => startAuth({ client: { appName: 'Shop\r\nBcc: x@evil.test' } }));

  it('still signs in: the email step sends the code (303, not 503) in a mail whose subject is one line', async () => {
    const page = await emailStep(auth, 'crlf@example.com');
    assert.equal(page.first.status, 200);
    assert.equal(page.sent.status, 303);
    const mail = auth.outbox.list().at(-1)!;
    assert.equal(mail.to, 'crlf@example.com');
    assert.doesNotMatch(mail.subject, /[\r\n]/);
    assert.match(mail.subject, /^Your code for Shop Bcc: x@evil\.test is \d{6}$/);
  });
});

describe('hosted sign-in: a form body with a broken percent-encoding is a 400', () => {
  const auth = startedForSuite(() => startAuth());

  const post = async (browser: TestBrowser, path: string, body: string | Uint8Array, cookie: string) =>
    fetch(new URL(path, auth.base), {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
      body,
    });

  it('the email form with %zz, a cut UTF-8 escape or bytes that are not UTF-8: 400, no mail sent', async () => {
    const browser = auth.browser();
    const first = await browser.request(authorizePath());
    const csrf = TestBrowser.csrf(first.body);
    const action = TestBrowser.formAction(first.body);
    const cookie = (first.headers.getSetCookie() ?? []).map((c) => c.split(';')[0]).join('; ');
    const sent = auth.outbox.list().length;
    // A valid email each time: only the broken escape in another field is wrong.
    for (const body of [
      `csrf=${csrf}&email=a%40example.com&passkeyCapable=%zz`,
      `csrf=${csrf}&email=a%40example.com&passkeyCapable=%E0%A4`,
      Buffer.from([...Buffer.from(`csrf=${csrf}&email=a%40example.com&passkeyCapable=`), 0xff]),
    ]) {
      const res = await post(browser, action, body, cookie);
      assert.equal(res.status, 400, String(body));
    }
    assert.equal(auth.outbox.list().length, sent);
  });

  it('POST /authorize with a broken percent-encoding: 400, not a 500', async () => {
    const res = await fetch(new URL('/authorize', auth.base), {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'client_id=client-1&state=%zz&nonce=%E0%A4',
    });
    assert.equal(res.status, 400);
  });

  it('POST /authorize_ciba and POST /logout with a broken percent-encoding: 400 (CIBA: invalid_request JSON)', async () => {
    const ciba = await fetch(new URL('/authorize_ciba', auth.base), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'scope=openid&login_hint=%zz',
    });
    assert.equal(ciba.status, 400);
    assert.equal(((await ciba.json()) as { error: string }).error, 'invalid_request');
    const logout = await fetch(new URL('/logout', auth.base), {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'client_id=client-1&state=%E0%A4',
    });
    assert.equal(logout.status, 400);
  });
});
