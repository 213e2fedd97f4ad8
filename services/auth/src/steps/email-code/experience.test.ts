import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { visibleText } from '../../pages/page-fixtures';
import { TestBrowser, authorizePath, startAuth } from '../../testing/hosted-test-client';
import { startedForSuite } from '../../testing/suite';

type Auth = Awaited<ReturnType<typeof startAuth>>;

async function toCodePage(auth: Auth, email: string) {
  const browser = auth.browser();
  const first = await browser.request(authorizePath());
  const csrf = TestBrowser.csrf(first.body);
  const emailAction = TestBrowser.formAction(first.body);
  const sent = await browser.request(emailAction, { form: { csrf, email } });
  assert.equal(sent.status, 303);
  return { browser, csrf, flow: emailAction.replace(/\/email$/, '') };
}

const wrongFor = (code: string) => (code === '000000' ? '000001' : '000000');

describe('the code page after errors (issue 25: the experience fixes)', () => {
  // Two mails per address a window: the second send uses the limit up, so the resend timer shows.
  const auth = startedForSuite(() =>
    startAuth({ env: { SESAME_MAILS_PER_ADDRESS: '2', SESAME_MAIL_WINDOW_S: '600' } }),
  );

  it('after the last wrong code says "Too many attempts", not "expired", also for the right code, and offers a new code first', async () => {
    const { browser, csrf, flow } = await toCodePage(auth, 'locked@example.com');
    const code = auth.codeFor('locked@example.com');
    for (let i = 0; i < 4; i++) {
      const wrong = await browser.request(`${flow}/code`, { form: { csrf, code: wrongFor(code) } });
      assert.match(visibleText(wrong.body), /That code is not right/);
    }
    const last = await browser.request(`${flow}/code`, { form: { csrf, code: wrongFor(code) } });
    assert.equal(last.status, 400);
    assert.match(
      visibleText(last.body),
      /Too many attempts\. Request a new code\. The code you were sent no longer works\./,
    );
    assert.doesNotMatch(last.body, /expired/);
    const right = await browser.request(`${flow}/code`, { form: { csrf, code } });
    assert.equal(right.status, 400, 'the dead code stays dead');
    assert.match(visibleText(right.body), /Too many attempts\. Request a new code\./);
    // Send a new code is the first form of the page, as a primary button, once.
    const forms = [...right.body.matchAll(/<form method="post" action="([^"]+)"/g)].map((m) => m[1]);
    assert.equal(forms[0], `${flow}/resend`);
    assert.equal(right.body.match(/Send a new code<\/button>/g)?.length, 1);
    assert.match(right.body, /<button type="submit">Send a new code<\/button>/);
  });

  it('a code sent twice (the page submitting itself as the person clicks Verify) goes on, not to an error', async () => {
    const { browser, csrf, flow } = await toCodePage(auth, 'twice@example.com');
    const code = auth.codeFor('twice@example.com');
    const first = await browser.request(`${flow}/code`, { form: { csrf, code } });
    assert.deepEqual([first.status, first.location], [303, `${flow}/continue`]);
    const again = await browser.request(`${flow}/code`, { form: { csrf, code } });
    assert.deepEqual([again.status, again.location], [303, `${flow}/continue`]);
  });

  it('shows the real wait before another code may be sent, and refuses a resend within it with the timer', async () => {
    const { browser, csrf, flow } = await toCodePage(auth, 'timer@example.com');
    const page = await browser.request(flow);
    assert.doesNotMatch(page.body, /data-resend-wait/, 'one more mail is allowed: no timer');
    const resent = await browser.request(`${flow}/resend`, { form: { csrf } });
    assert.equal(resent.status, 200);
    const wait = Number(/data-resend-wait="(\d+)"/.exec(resent.body)?.[1]);
    assert.ok(wait > 590 && wait <= 600, `the window's remaining time, got ${wait}`);
    assert.match(visibleText(resent.body), /You can send a new code in (9:59|10:00)\./);
    assert.match(resent.body, /<button type="submit" class="secondary" disabled>Send a new code<\/button>/);
    const refused = await browser.request(`${flow}/resend`, { form: { csrf } });
    assert.equal(refused.status, 429);
    assert.match(visibleText(refused.body), /Too many codes sent/);
    assert.match(refused.body, /data-resend-wait="\d+"/);
    assert.match(refused.body, /Verification code/, 'still the code page, not the sign-in page');
  });

  it('keeps a refused email address in the field', async () => {
    const browser = auth.browser();
    const first = await browser.request(authorizePath());
    const csrf = TestBrowser.csrf(first.body);
    const refused = await browser.request(TestBrowser.formAction(first.body), {
      form: { csrf, email: 'ann@@example' },
    });
    assert.equal(refused.status, 400);
    assert.match(refused.body, /<input id="email" name="email" type="email" value="ann@@example"/);
    assert.match(visibleText(refused.body), /Enter an email address like name@example\.com\./);
  });

  it('marks the code field for one-time-code autofill and the numeric keyboard, with the paste/auto-submit script', async () => {
    const { browser, flow } = await toCodePage(auth, 'field@example.com');
    const page = await browser.request(flow);
    assert.match(page.body, /inputmode="numeric" autocomplete="one-time-code"/);
    assert.match(page.body, /<script src="\/assets\/code-input\.[0-9a-f]{10}\.js" defer><\/script>/);
  });
});
