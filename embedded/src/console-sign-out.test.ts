// Issue 35 item 3: the Console's Sign out ends the Sesame session it signed in with, not only the console
// cookie, so the next person at the browser is asked for an email and a code. Real auth and mgmt (the
// embedded platform, in-memory stores), over plain HTTP with one cookie jar for the one origin.
import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { TestBrowser } from '@sesame/auth-service/test-client';
import { type Embedded, startEmbedded } from './index';

const env = { LOG_LEVEL: 'silent', SESAME_ENV: 'development' };

describe('Console sign-out with the real auth service', () => {
  let embedded: Embedded;
  beforeAll(async () => {
    embedded = await startEmbedded({ port: 0, env, seedDemo: true });
  });
  afterAll(() => embedded?.stop());

  /** The sign-in code in the development outbox's one mail to `to`. */
  async function codeFor(to: string): Promise<string> {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const res = await fetch(`${embedded.url}/dev/mail.json?to=${encodeURIComponent(to)}`);
      const { messages } = (await res.json()) as { messages: Array<{ text: string }> };
      const code = messages[0] && /\b(\d{6})\b/.exec(messages[0].text)?.[1];
      if (code) return code;
      assert.ok(Date.now() < deadline, `no code mailed to ${to}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /**
   * Through auth from `authorize` (its /authorize and /flow redirects) until it shows a page (200) or sends
   * the browser back to the console (a redirect to /console/callback, with a code when signed in silently).
   */
  async function throughAuth(browser: TestBrowser, authorize: string) {
    let res = await browser.request(authorize);
    for (let hops = 0; hops < 10 && res.status >= 300 && res.status < 400; hops++) {
      if (new URL(res.location, embedded.url).pathname.startsWith('/console/')) break;
      res = await browser.request(res.location);
    }
    return res;
  }

  /** /console/ while signed out: through /console/signin to auth's /authorize; what auth answers. */
  async function openConsole(browser: TestBrowser) {
    const console = await browser.request('/console/');
    assert.equal(console.status, 303);
    const signin = await browser.request(console.location);
    assert.equal(signin.status, 302);
    assert.equal(new URL(signin.location).pathname, '/authorize');
    assert.equal(new URL(signin.location).searchParams.get('prompt'), null, 'no prompt: silent if it can');
    return throughAuth(browser, signin.location);
  }

  /** Follows redirects on the one origin until a page answers; that page and the last address. */
  async function follow(browser: TestBrowser, first: { status: number; location: string; body: string }) {
    let res = first;
    let at = '';
    for (let hops = 0; hops < 10 && res.status >= 300 && res.status < 400; hops++) {
      at = res.location;
      res = await browser.request(res.location);
    }
    return { ...res, at };
  }

  it('after Sign out, /console/ shows Sesame’s sign-in page instead of signing the browser straight back in', async () => {
    const owner = embedded.demo!.ownerEmail;
    const browser = new TestBrowser(embedded.url);
    const identify = await openConsole(browser);
    assert.equal(identify.status, 200, identify.body.slice(0, 200));
    const emailAction = TestBrowser.formAction(identify.body);
    const flow = emailAction.replace(/\/email$/, '');
    const sent = await browser.request(emailAction, {
      form: { csrf: TestBrowser.csrf(identify.body), email: owner },
    });
    assert.equal(sent.status, 303, sent.body.slice(0, 200));
    const codePage = await browser.request(sent.location);
    const verified = await browser.request(`${flow}/code`, {
      form: { csrf: TestBrowser.csrf(codePage.body), code: await codeFor(owner) },
    });
    assert.equal(verified.status, 303, verified.body.slice(0, 200));
    let done = await browser.request(verified.location);
    if (done.status === 200) {
      done = await browser.request(`${flow}/consent`, {
        form: { csrf: TestBrowser.csrf(done.body), decision: 'approve' },
      });
    }
    assert.equal(done.status, 302);
    const signedIn = await follow(browser, done);
    assert.equal(signedIn.status, 200);
    assert.match(signedIn.body, /<nav class="console-nav" aria-label="Console">/);

    // While Sesame's session lives, a new console sign-in is answered at once (the case sign-out must end).
    const silent = await throughAuth(
      browser,
      (await browser.request('/console/signin?return=%2Fconsole%2F')).location,
    );
    const back = new URL(silent.location, embedded.url);
    assert.equal(back.pathname, '/console/callback');
    assert.ok(back.searchParams.get('code'), 'silently signed in with a code');
    const again = await follow(browser, silent);
    assert.match(again.body, /<nav class="console-nav" aria-label="Console">/);

    const out = await browser.request('/console/signout', { form: { csrf: TestBrowser.csrf(again.body) } });
    assert.equal(out.status, 303);
    assert.equal(new URL(out.location).pathname, '/logout');
    const signedOut = await follow(browser, out);
    assert.equal(new URL(signedOut.at, embedded.url).pathname, '/console/signed-out');
    assert.equal(signedOut.status, 200);
    assert.match(signedOut.body, /You are signed out of the Sesame Console\./);

    // The next person at this browser: the email form again, no code for the console.
    const next = await openConsole(browser);
    assert.equal(next.status, 200, `not signed in silently (sent to ${next.location})`);
    assert.match(next.body, /name="email"/);
    assert.equal(TestBrowser.formAction(next.body).endsWith('/email'), true);
  });
});
