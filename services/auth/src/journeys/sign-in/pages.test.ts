import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { setDeviceAccess } from '../../testing/device-access';
import { emailStep, signIn } from '../../testing/email-sign-in';
import { TestBrowser, authorizePath, startAuth } from '../../testing/hosted-test-client';
import { matchCodeOf } from '../../testing/qr';
import { startedForSuite } from '../../testing/suite';

type Auth = Awaited<ReturnType<typeof startAuth>>;

/** Runs /authorize and the email step; returns the browser on the code page and the flow's base path. */
async function toCodePage(auth: Auth, email: string, extra: Record<string, string> = {}) {
  const page = await emailStep(auth, email, extra);
  assert.equal(page.first.status, 200);
  assert.equal(page.sent.status, 303);
  return page;
}

/** The number the waiting tab shows: what a person picks where the link is opened in another browser. */
const shownCode = async (browser: TestBrowser, flow: string) =>
  matchCodeOf((await browser.request(flow)).body);

describe('hosted sign-in over HTTP (auth service, in-memory stores)', () => {
  const auth = startedForSuite(() => startAuth());

  it('signs a new user in by email code: consent for email, then a redirect with code, state and iss', async () => {
    const { browser, csrf, flow } = await toCodePage(auth, 'New@Example.com');
    const codePage = await browser.request(flow);
    assert.match(codePage.body, /Verification code/);
    const verified = await browser.request(`${flow}/code`, {
      form: { csrf, code: auth.codeFor('new@example.com') },
    });
    assert.deepEqual([verified.status, verified.location], [303, `${flow}/continue`]);
    const consent = await browser.request(`${flow}/continue`);
    assert.match(consent.body, />Approve</);
    assert.match(
      consent.headers.get('content-security-policy') ?? '',
      /form-action 'self' https:\/\/rp\.example/,
    );
    const done = await browser.request(`${flow}/consent`, { form: { csrf, decision: 'approve' } });
    assert.equal(done.status, 302);
    const issued = auth.issued.at(-1);
    assert.equal(
      done.location,
      `https://rp.example/cb?code=code-${auth.issued.length}&state=st-1&iss=http%3A%2F%2Flocalhost`,
    );
    assert.equal(issued?.claims?.email, 'new@example.com');
    assert.deepEqual(issued?.claims?.amr, ['ts.svc.email_otp']);
    assert.equal(issued?.claims?.svcInfo?.originatingDevice?.browserType, 'Firefox');
  });

  it('asks no consent again for scopes already shared, and prefills the login_hint', async () => {
    const first = await toCodePage(auth, 'again@example.com');
    await first.browser.request(`${first.flow}/code`, {
      form: { csrf: first.csrf, code: auth.codeFor('again@example.com') },
    });
    await first.browser.request(`${first.flow}/consent`, { form: { csrf: first.csrf, decision: 'approve' } });
    const browser = auth.browser();
    const page = await browser.request(authorizePath({ login_hint: 'email:again@example.com' }));
    assert.match(page.body, /value="again@example\.com"/);
    const csrf = TestBrowser.csrf(page.body);
    const flow = TestBrowser.formAction(page.body).replace(/\/email$/, '');
    await browser.request(`${flow}/email`, { form: { csrf, email: 'again@example.com' } });
    const code = /\b(\d{6})\b/.exec(auth.outbox.list()[0]?.subject ?? '')?.[1] ?? '';
    await browser.request(`${flow}/code`, { form: { csrf, code } });
    const finish = await browser.request(`${flow}/continue`);
    assert.equal(finish.status, 302, 'no consent page the second time');
    assert.match(finish.location, /^https:\/\/rp\.example\/cb\?code=/);
  });

  it('kills the code after 5 wrong tries: the right code then fails too', async () => {
    const { browser, csrf, flow } = await toCodePage(auth, 'guess@example.com');
    const right = auth.codeFor('guess@example.com');
    const wrong = right === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) {
      const res = await browser.request(`${flow}/code`, { form: { csrf, code: wrong } });
      assert.equal(res.status, 400);
    }
    const late = await browser.request(`${flow}/code`, { form: { csrf, code: right } });
    assert.equal(late.status, 400);
    assert.equal(auth.issued.filter((i) => i.claims?.email === 'guess@example.com').length, 0);
  });

  it('refuses a form without the CSRF token, and a flow driven from another browser', async () => {
    const { browser, flow } = await toCodePage(auth, 'csrf@example.com');
    const noToken = await browser.request(`${flow}/code`, {
      form: { code: auth.codeFor('csrf@example.com') },
    });
    assert.equal(noToken.status, 403);
    assert.match(noToken.body, /<h1>/);
    const stranger = await auth.browser().request(flow);
    assert.equal(stranger.status, 403);
  });

  it('answers an unknown client with an HTML error page, never a redirect', async () => {
    const res = await auth.browser().request(authorizePath({ client_id: 'nobody' }));
    assert.equal(res.status, 400);
    assert.equal(res.location, '');
    assert.match(res.headers.get('content-type') ?? '', /text\/html/);
  });

  it('confirms a magic link in another browser; the first one continues, and the link works once', async () => {
    const { browser, csrf, flow } = await toCodePage(auth, 'link@example.com');
    const asked = await browser.request(`${flow}/magic-link`, { form: { csrf } });
    assert.equal(asked.status, 303);
    assert.deepEqual(JSON.parse((await browser.request(`${flow}/status`)).body), { state: 'pending' });
    const link = auth.linkFor('link@example.com');
    const phone = auth.browser();
    const look = await phone.request(link);
    assert.match(look.body, /Confirm sign-in/);
    assert.deepEqual(
      JSON.parse((await browser.request(`${flow}/status`)).body),
      { state: 'pending' },
      'looking spends nothing',
    );
    const choice = await shownCode(browser, flow);
    const confirmed = await phone.request(link, { form: { csrf: TestBrowser.csrf(look.body), choice } });
    assert.equal(confirmed.status, 200);
    assert.deepEqual(JSON.parse((await browser.request(`${flow}/status`)).body), { state: 'ready' });
    const again = await phone.request(link);
    assert.equal(again.status, 410);
    const consent = await browser.request(`${flow}/continue`);
    const done = await browser.request(`${flow}/consent`, {
      form: { csrf: TestBrowser.csrf(consent.body), decision: 'approve' },
    });
    assert.equal(done.status, 302);
    assert.deepEqual(auth.issued.at(-1)?.claims?.amr, ['ts.svc.email_magic_link']);
  });

  it('status?wait=N answers as soon as the link is confirmed elsewhere (long polling), else after N seconds', async () => {
    const { browser, csrf, flow } = await toCodePage(auth, 'longpoll@example.com');
    await browser.request(`${flow}/magic-link`, { form: { csrf } });
    let started = Date.now();
    assert.deepEqual(JSON.parse((await browser.request(`${flow}/status?wait=1`)).body), { state: 'pending' });
    const waited = Date.now() - started;
    assert.ok(waited >= 500 && waited < 2000, `a pending flow answers after the wait (${waited} ms)`);

    const link = auth.linkFor('longpoll@example.com');
    const phone = auth.browser();
    const look = await phone.request(link);
    const choice = await shownCode(browser, flow);
    started = Date.now();
    const answer = browser.request(`${flow}/status?wait=20`);
    await new Promise((r) => setTimeout(r, 300));
    await phone.request(link, { form: { csrf: TestBrowser.csrf(look.body), choice } });
    assert.deepEqual(JSON.parse((await answer).body), { state: 'ready' });
    const took = Date.now() - started;
    assert.ok(took < 2000, `answered ${took} ms after asking, not after the 20 s wait`);

    // Only the browser that started the flow is told anything, waiting or not; a bad wait is a clear 400.
    assert.deepEqual(JSON.parse((await auth.browser().request(`${flow}/status?wait=1`)).body), {
      state: 'expired',
    });
    for (const wait of ['26', 'abc', '-1', '1.5', '100']) {
      const bad = await browser.request(`${flow}/status?wait=${wait}`);
      assert.equal(bad.status, 400, wait);
      assert.equal(JSON.parse(bad.body).error, 'invalid_request');
    }
  });

  it('Deny on the consent page redirects with access_denied and the state', async () => {
    const { browser, csrf, flow } = await toCodePage(auth, 'deny@example.com');
    await browser.request(`${flow}/code`, { form: { csrf, code: auth.codeFor('deny@example.com') } });
    const denied = await browser.request(`${flow}/consent`, { form: { csrf, decision: 'deny' } });
    assert.equal(denied.status, 302);
    const url = new URL(denied.location);
    assert.equal(url.searchParams.get('error'), 'access_denied');
    assert.equal(url.searchParams.get('state'), 'st-1');
    assert.equal(url.searchParams.get('iss'), 'http://localhost');
  });

  it('renders the first page in German for ui_locales=de', async () => {
    const page = await auth.browser().request(authorizePath({ ui_locales: 'de-CH fr' }));
    assert.match(page.body, /<html lang="de">/);
  });
});

/** Signs a new user in by email code (approving consent) in a fresh browser; returns it, signed in. */
const signedIn = async (auth: Auth, email: string) => (await signIn(auth, email, {}, toCodePage)).browser;

describe('single sign-on and blocked devices', () => {
  const auth = startedForSuite(() => startAuth());

  it('reuses the browser session: a second /authorize redirects with a code, same amr and auth_time, no page', async () => {
    const browser = await signedIn(auth, 'sso@example.com');
    const first = auth.issued.at(-1)!;
    const again = await browser.request(authorizePath({ state: 'st-2', nonce: 'n-2' }));
    assert.equal(again.status, 303);
    const done = await browser.request(again.location);
    assert.equal(done.status, 302);
    const url = new URL(done.location);
    assert.deepEqual(
      [url.origin + url.pathname, url.searchParams.get('state')],
      ['https://rp.example/cb', 'st-2'],
    );
    const second = auth.issued.at(-1)!;
    assert.notEqual(second, first);
    assert.equal(second.claims?.sub, first.claims?.sub);
    assert.equal(second.claims?.nonce, 'n-2');
    assert.equal(second.claims?.authTime, first.claims?.authTime);
    assert.deepEqual(second.claims?.amr, ['ts.svc.email_otp']);
  });

  it('shows the sign-in page instead for prompt=login, acr_values ts.svc.iac.email, or a login_hint of someone else', async () => {
    const browser = await signedIn(auth, 'fresh@example.com');
    const fresh: Record<string, string>[] = [
      { prompt: 'login' },
      { acr_values: 'ts.svc.iac.email' },
      { login_hint: 'someone.else@example.com' },
    ];
    for (const extra of fresh) {
      const page = await browser.request(authorizePath(extra));
      assert.equal(page.status, 200, JSON.stringify(extra));
      assert.match(page.body, /Email address/);
    }
    const hinted = await browser.request(authorizePath({ login_hint: 'email:FRESH@example.com' }));
    assert.equal(hinted.status, 303, 'a hint naming the signed-in person keeps single sign-on');
  });

  it('refuses sign-in from a device an admin blocked for the user: access_denied, no code; unblocking lets it in', async () => {
    const browser = await signedIn(auth, 'blocked@example.com');
    const block = (allowAccess: boolean) => setDeviceAccess(auth, 'blocked@example.com', allowAccess);
    await block(false);
    const issuedBefore = auth.issued.length;

    // By the live session, and by a fresh email code in the same browser (the device cookie names it).
    const sso = await browser.request(authorizePath());
    const refused = await browser.request(sso.location);
    const page = await browser.request(authorizePath({ prompt: 'login' }));
    const csrf = TestBrowser.csrf(page.body);
    const flow = TestBrowser.formAction(page.body).replace(/\/email$/, '');
    await browser.request(`${flow}/email`, { form: { csrf, email: 'blocked@example.com' } });
    const code = /\b(\d{6})\b/.exec(auth.outbox.list()[0]?.subject ?? '')?.[1] ?? '';
    const proven = await browser.request(`${flow}/code`, { form: { csrf, code } });
    const refusedToo = await browser.request(proven.location);
    for (const res of [refused, refusedToo]) {
      assert.equal(res.status, 302);
      const url = new URL(res.location);
      assert.equal(url.searchParams.get('error'), 'access_denied');
      assert.equal(url.searchParams.get('error_description'), 'this device is blocked for this user');
      assert.equal(url.searchParams.get('iss'), 'http://localhost');
    }
    assert.equal(auth.issued.length, issuedBefore, 'no code for a blocked device');

    await block(true);
    const allowed = await browser.request(authorizePath());
    const done = await browser.request(allowed.location);
    assert.match(done.location, /^https:\/\/rp\.example\/cb\?code=/);
  });
});

describe('the tenant location rule (blocked countries)', () => {
  const auth = startedForSuite(() => startAuth({ client: { blockedCountries: ['US'] }, behindProxy: true }));

  it('redirects a browser in a blocked country with risk_access_restriction, state and iss; no flow starts', async () => {
    const browser = auth.browser();
    browser.headers['x-forwarded-for'] = '8.8.8.8'; // US in the bundled IP-location database
    const res = await browser.request(authorizePath());
    assert.equal(res.status, 302);
    const url = new URL(res.location);
    assert.equal(url.origin + url.pathname, 'https://rp.example/cb');
    assert.deepEqual(
      [url.searchParams.get('error'), url.searchParams.get('state'), url.searchParams.get('iss')],
      ['risk_access_restriction', 'st-1', 'http://localhost'],
    );
  });

  it('lets a browser elsewhere sign in, but not when the magic link is confirmed from a blocked country', async () => {
    const { browser, csrf, flow } = await toCodePage(auth, 'traveller@example.com');
    await browser.request(`${flow}/magic-link`, { form: { csrf } });
    const phone = auth.browser();
    phone.headers['x-forwarded-for'] = '8.8.8.8';
    const look = await phone.request(auth.linkFor('traveller@example.com'));
    await phone.request(auth.linkFor('traveller@example.com'), {
      form: { csrf: TestBrowser.csrf(look.body), choice: await shownCode(browser, flow) },
    });
    const issued = auth.issued.length;
    const res = await browser.request(`${flow}/continue`);
    assert.equal(res.status, 302);
    assert.equal(new URL(res.location).searchParams.get('error'), 'risk_access_restriction');
    assert.equal(auth.issued.length, issued, 'no code');

    const home = await toCodePage(auth, 'homebody@example.com', { scope: 'openid' });
    await home.browser.request(`${home.flow}/code`, {
      form: { csrf: home.csrf, code: auth.codeFor('homebody@example.com') },
    });
    const done = await home.browser.request(`${home.flow}/continue`);
    assert.match(done.location, /^https:\/\/rp\.example\/cb\?code=/);
  });
});

describe('hosted sign-in when something it depends on fails', () => {
  it('says the mail could not be sent (503) and records no code as sent', async () => {
    const auth = await startAuth({ failMail: true });
    try {
      const browser = auth.browser();
      const first = await browser.request(authorizePath());
      const res = await browser.request(TestBrowser.formAction(first.body), {
        form: { csrf: TestBrowser.csrf(first.body), email: 'nomail@example.com' },
      });
      assert.equal(res.status, 503);
      assert.match(res.body, /We could not send the email just now/);
      assert.match(res.body, /role="alert"/);
    } finally {
      await auth.stop();
    }
  });

  it('shows the error page with 503 and Retry-After when Grants is unavailable, never JSON', async () => {
    const unavailable = () =>
      Object.assign(new Error('14 UNAVAILABLE: no connection'), {
        code: 14,
        details: 'no connection',
        metadata: {},
      });
    const auth = await startAuth({ failIssueCode: unavailable });
    try {
      const { browser, csrf, flow } = await toCodePage(auth, 'down@example.com', { scope: 'openid' });
      const res = await browser.request(`${flow}/code`, {
        form: { csrf, code: auth.codeFor('down@example.com') },
      });
      const finish = await browser.request(res.location);
      assert.equal(finish.status, 503);
      assert.equal(finish.headers.get('retry-after'), '2');
      assert.match(finish.headers.get('content-type') ?? '', /text\/html/);
      assert.match(finish.body, /Something went wrong/);
    } finally {
      await auth.stop();
    }
  });
});
