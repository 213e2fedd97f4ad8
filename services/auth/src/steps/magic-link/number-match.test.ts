import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { NUMBER_MISMATCH_REASON } from '../../flow/number-match';
import { authWithEvents } from '../../testing/auth-with-events';
import { TestBrowser, authorizePath, type startAuth } from '../../testing/hosted-test-client';
import { matchCodeOf } from '../../testing/qr';

type Auth = Awaited<ReturnType<typeof startAuth>>;
const macChrome =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36';

/** A browser that asked for a magic link for `email` (on the "Check your email" page), from Mountain View. */
async function linkSent(auth: Auth, email: string) {
  const browser = auth.browser();
  browser.headers['user-agent'] = macChrome;
  browser.headers['x-forwarded-for'] = '8.8.8.8'; // Mountain View, US in the bundled IP-location database
  const first = await browser.request(authorizePath({ scope: 'openid' }));
  const csrf = TestBrowser.csrf(first.body);
  const emailAction = TestBrowser.formAction(first.body);
  const flow = emailAction.replace(/\/email$/, '');
  await browser.request(emailAction, { form: { csrf, email } });
  assert.equal((await browser.request(`${flow}/magic-link`, { form: { csrf } })).location, flow);
  const waiting = await browser.request(flow);
  assert.match(waiting.body, /<h1>Check your email<\/h1>/);
  return { browser, csrf, flow, code: matchCodeOf(waiting.body), waiting, link: auth.linkFor(email) };
}

const statusOf = async (browser: TestBrowser, flow: string) =>
  (JSON.parse((await browser.request(`${flow}/status`)).body) as { state: string }).state;

/** The choices of a number-match page, in the order shown. */
const choicesOf = (html: string) => [...html.matchAll(/name="choice" value="(\d{2})"/g)].map((m) => m[1]!);

describe('magic link confirmed in another browser: number matching', () => {
  const { auth, eventsOf } = authWithEvents({ behindProxy: true });

  it('the waiting tab shows two digits; the other browser sees where and when the sign-in started and three numbers, the right one among them', async () => {
    const { browser, flow, code, waiting, link } = await linkSent(auth, 'match-show@example.com');
    assert.match(code, /^[1-9]\d$/);
    assert.match(waiting.body, /If you confirm on another device, pick this number there:/);
    const phone = auth.browser();
    const page = await phone.request(link);
    assert.equal(page.status, 200);
    assert.equal(page.headers.get('cache-control'), 'no-store');
    assert.match(
      page.body,
      /<h2 id="other-device-heading">This sign-in will continue on another device<\/h2>/,
    );
    assert.match(page.body, /<dd>Chrome 140 on macOS 10\.15<\/dd>/);
    assert.match(page.body, /<dd>Mountain View, United States<\/dd>/);
    assert.match(page.body, /<time datetime="\d{4}-\d\d-\d\dT[\d:.]+Z">[^<]+ UTC<\/time>/);
    const choices = choicesOf(page.body);
    assert.equal(choices.length, 3);
    assert.equal(new Set(choices).size, 3);
    assert.ok(choices.includes(code));
    assert.doesNotMatch(page.body, /data-match-code/, 'the code itself is not singled out');
    // Shown again: the same three numbers (a fresh set would give the right one away).
    assert.deepEqual(choicesOf((await auth.browser().request(link)).body), choices);
    assert.equal(await statusOf(browser, flow), 'pending', 'looking spends nothing');
  });

  it('the right pick continues as before: the link is confirmed, the waiting tab goes on to the RP', async () => {
    const { browser, flow, code, link } = await linkSent(auth, 'match-right@example.com');
    const phone = auth.browser();
    const csrf = TestBrowser.csrf((await phone.request(link)).body);
    const confirmed = await phone.request(link, { form: { csrf, choice: code } });
    assert.equal(confirmed.status, 200);
    assert.match(confirmed.body, /<h1>You&#x27;re signed in<\/h1>/);
    assert.equal(await statusOf(browser, flow), 'ready');
    assert.match((await browser.request(`${flow}/continue`)).location, /^https:\/\/rp\.example\/cb\?code=/);
    assert.deepEqual(auth.issued.at(-1)?.claims?.amr, ['ts.svc.email_magic_link']);
  });

  it('a wrong pick ends the flow for both: a clear page there, access_denied here, a failure with its own reason', async () => {
    const { browser, csrf: desktopCsrf, flow, code, link } = await linkSent(auth, 'match-wrong@example.com');
    const phone = auth.browser();
    const page = await phone.request(link);
    const wrong = choicesOf(page.body).find((c) => c !== code)!;
    const issued = auth.issued.length;
    const picked = await phone.request(link, { form: { csrf: TestBrowser.csrf(page.body), choice: wrong } });
    assert.equal(picked.status, 403);
    assert.match(picked.body, /<h1>Sign-in stopped<\/h1>/);
    assert.match(picked.body, /stopped on both devices/);

    // The waiting tab's poll sees the end, and its next step is the RP with access_denied (no code).
    assert.equal(await statusOf(browser, flow), 'ready');
    assert.equal((await browser.request(flow)).location, `${flow}/continue`);
    // Nothing more can be done in the ended flow meanwhile (an email code, say).
    assert.equal(
      (await browser.request(`${flow}/code`, { form: { csrf: desktopCsrf, code: '000000' } })).status,
      410,
    );
    const end = new URL((await browser.request(`${flow}/continue`)).location);
    assert.deepEqual(
      [end.origin + end.pathname, end.searchParams.get('error'), end.searchParams.get('state')],
      ['https://rp.example/cb', 'access_denied', 'st-1'],
    );
    assert.equal(auth.issued.length, issued, 'no code');
    assert.equal((await browser.request(flow)).status, 410, 'the flow is gone');

    const failure = eventsOf(flow.replace('/flow/', '')).find(
      (e) => e.failureReason === NUMBER_MISMATCH_REASON,
    );
    assert.deepEqual(
      [failure?.action, failure?.status, failure?.errorCode],
      ['email_verification_failure', 'failure', 'auth_failure'],
    );
    assert.match(NUMBER_MISMATCH_REASON, /^number_mismatch: /);
    assert.ok(!eventsOf(flow.replace('/flow/', '')).some((e) => e.action === 'email_verification_success'));
  });

  it('one pick only: the same link posted again is refused, and so is another link of the same flow', async () => {
    const email = 'match-replay@example.com';
    const { browser, csrf, flow, code, link } = await linkSent(auth, email);
    // A second mail, a second link of the same flow (the number stays the flow's).
    await browser.request(`${flow}/magic-link`, { form: { csrf } });
    const second = auth.linkFor(email); // the newest mail's link
    assert.ok(second && second !== link);
    assert.equal(matchCodeOf((await browser.request(flow)).body), code);

    const phone = auth.browser();
    const phoneCsrf = TestBrowser.csrf((await phone.request(link)).body);
    assert.equal((await phone.request(link, { form: { csrf: phoneCsrf, choice: code } })).status, 200);
    const replayed = await phone.request(link, { form: { csrf: phoneCsrf, choice: code } });
    assert.equal(replayed.status, 410);
    assert.match(replayed.body, /<h1>Link not valid<\/h1>/);

    const other = auth.browser();
    const otherCsrf = TestBrowser.csrf((await other.request(second)).body);
    const again = await other.request(second, { form: { csrf: otherCsrf, choice: code } });
    assert.equal(again.status, 409);
    assert.match(again.body, /<h1>Number already picked<\/h1>/);
  });

  it('no pick, or a number not offered, is bad input (400) and keeps the link', async () => {
    const { browser, flow, code, link } = await linkSent(auth, 'match-missing@example.com');
    const phone = auth.browser();
    const page = await phone.request(link);
    const csrf = TestBrowser.csrf(page.body);
    const offered = choicesOf(page.body);
    const notOffered = ['', '1', String((Number(code) % 89) + 10).padStart(2, '0')].filter(
      (c) => !offered.includes(c),
    );
    for (const choice of [undefined, ...notOffered]) {
      const res = await phone.request(link, { form: choice === undefined ? { csrf } : { csrf, choice } });
      assert.equal(res.status, 400, `choice ${choice}`);
      assert.match(res.body, /<h1>Pick a number<\/h1>/);
    }
    assert.equal(await statusOf(browser, flow), 'pending');
    assert.equal((await phone.request(link, { form: { csrf, choice: code } })).status, 200);
    assert.equal(await statusOf(browser, flow), 'ready');
  });

  it('the very browser session that started the flow confirms with Confirm sign-in: no numbers asked', async () => {
    const { browser, flow, link } = await linkSent(auth, 'match-same@example.com');
    const page = await browser.request(link);
    assert.match(page.body, /<button type="submit">Confirm sign-in<\/button>/);
    assert.equal(choicesOf(page.body).length, 0);
    const confirmed = await browser.request(link, { form: { csrf: TestBrowser.csrf(page.body) } });
    assert.equal(confirmed.location, `${flow}/continue`);
    assert.match((await browser.request(`${flow}/continue`)).location, /^https:\/\/rp\.example\/cb\?code=/);
  });
});
