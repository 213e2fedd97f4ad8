import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { NUMBER_MISMATCH_REASON } from '../../flow/number-match';
import { authWithEvents } from '../../testing/auth-with-events';
import { TestBrowser, authorizePath, type startAuth } from '../../testing/hosted-test-client';
import { mobileLinkOf, phoneBrowser, phoneByCode, phonePicks } from '../../testing/qr';

type Auth = Awaited<ReturnType<typeof startAuth>>;
const status = async (browser: TestBrowser, flow: string) =>
  (JSON.parse((await browser.request(`${flow}/mobile/status`)).body) as { state: string }).state;
const choicesOf = (html: string) => [...html.matchAll(/name="choice" value="(\d{2})"/g)].map((m) => m[1]!);

/** A desktop at the QR page, and a phone that opened its link (nothing picked yet). */
async function phoneAtMatch(auth: Auth) {
  const desktop = auth.browser();
  const first = await desktop.request(authorizePath({ scope: 'openid', prompt: 'login' }));
  const flow = TestBrowser.formAction(first.body).replace(/\/email$/, '');
  await desktop.request(`${flow}/mobile`, { form: { csrf: TestBrowser.csrf(first.body) } });
  const qrPage = await desktop.request(flow);
  const code = /data-match-code>(\d{2})</.exec(qrPage.body)?.[1] ?? '';
  const phone = phoneBrowser(auth);
  const opened = await phone.request(mobileLinkOf(qrPage.body));
  assert.equal(opened.status, 303);
  const phoneFlow = opened.location;
  const page = await phone.request(phoneFlow);
  return { desktop, flow, code, qrPage, phone, phoneFlow, page };
}

describe('desktop to mobile: the phone picks the number the desktop shows', () => {
  const { auth, eventsOf } = authWithEvents();

  it('the QR page shows two digits; the phone’s first page names the desktop and offers three numbers, the right one among them', async () => {
    const { code, qrPage, page } = await phoneAtMatch(auth);
    assert.match(code, /^[1-9]\d$/);
    assert.match(qrPage.body, /Your phone will ask you to pick this number:/);
    assert.equal(page.status, 200);
    assert.equal(page.headers.get('cache-control'), 'no-store');
    assert.match(page.body, /<h1>Sign in with this phone\?<\/h1>/);
    assert.match(page.body, /This sign-in will continue on another device/);
    assert.match(page.body, /<dd>Firefox 132 on Linux[^<]*<\/dd>/);
    assert.match(page.body, /<dd>Unknown location<\/dd>/, 'a loopback address has no place');
    assert.match(page.body, /<time datetime="[^"]+Z">[^<]+ UTC<\/time>/);
    const choices = choicesOf(page.body);
    assert.equal(new Set(choices).size, 3);
    assert.ok(choices.includes(code));
    assert.doesNotMatch(page.body, /Email address/, 'nothing of the sign-in before the match');
  });

  it('the right pick starts the phone’s sign-in; its proof reaches the desktop only after the match', async () => {
    const { desktop, flow, code, phone, phoneFlow } = await phoneAtMatch(auth);
    // Signed in on the phone without the match: its finish leads back to the number page, the desktop waits.
    await phoneByCode(auth, phone, phoneFlow, 'match-phone@example.com');
    assert.equal((await phone.request(`${phoneFlow}/continue`)).location, phoneFlow);
    assert.equal(await status(desktop, flow), 'pending');

    const picked = await phonePicks(phone, phoneFlow, code);
    assert.equal(picked.status, 303);
    assert.equal(picked.location, phoneFlow);
    assert.equal((await phone.request(phoneFlow)).location, `${phoneFlow}/continue`);
    const next = await phone.request(`${phoneFlow}/continue`);
    assert.equal(next.status, 200);
    assert.match(next.body, /Create a passkey/);
  });

  it('a wrong pick ends both: the phone says so, the desktop ends with access_denied, a failure with its own reason', async () => {
    const { desktop, flow, code, phone, phoneFlow, page } = await phoneAtMatch(auth);
    const wrong = choicesOf(page.body).find((c) => c !== code)!;
    const picked = await phonePicks(phone, phoneFlow, wrong);
    assert.equal(picked.status, 403);
    assert.match(picked.body, /<h1>Sign-in stopped<\/h1>/);
    assert.equal((await phone.request(phoneFlow)).status, 410, 'the phone’s flow is over');

    assert.equal(await status(desktop, flow), 'ready');
    const end = new URL((await desktop.request(`${flow}/mobile/next`)).location);
    assert.deepEqual(
      [end.searchParams.get('error'), end.searchParams.get('state')],
      ['access_denied', 'st-1'],
    );
    const failure = eventsOf(flow.replace('/flow/', '')).find(
      (e) => e.failureReason === NUMBER_MISMATCH_REASON,
    );
    assert.deepEqual(
      [failure?.action, failure?.status, failure?.errorCode, failure?.accessingDeviceInfo?.osType],
      ['device_auth', 'failure', 'auth_failure', 'Linux'],
    );
  });

  it('one pick only: a second is refused (409), and of racing picks exactly one counts', async () => {
    const first = await phoneAtMatch(auth);
    assert.equal((await phonePicks(first.phone, first.phoneFlow, first.code)).status, 303);
    const again = await first.phone.request(`${first.phoneFlow}/mobile/match`, {
      form: { csrf: TestBrowser.csrf(first.page.body), choice: first.code },
    });
    assert.equal(again.status, 409);
    assert.match(again.body, /<h1>Number already picked<\/h1>/);

    const racing = await phoneAtMatch(auth);
    const csrf = TestBrowser.csrf(racing.page.body);
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        racing.phone.request(`${racing.phoneFlow}/mobile/match`, { form: { csrf, choice: racing.code } }),
      ),
    );
    assert.deepEqual(answers.map((a) => a.status).sort(), [303, 409, 409, 409, 409, 409, 409, 409]);
  });

  it('no pick, or a number not offered, is bad input (400) and spends nothing', async () => {
    const { code, phone, phoneFlow, page } = await phoneAtMatch(auth);
    const csrf = TestBrowser.csrf(page.body);
    const offered = choicesOf(page.body);
    const notOffered = ['5', 'abc', ...['10', '11', '12', '13'].filter((c) => !offered.includes(c))];
    for (const form of [{ csrf }, ...notOffered.map((choice) => ({ csrf, choice }))]) {
      const res = await phone.request(`${phoneFlow}/mobile/match`, { form });
      assert.equal(res.status, 400, JSON.stringify(form));
      assert.match(res.body, /<h1>Pick a number<\/h1>/);
    }
    assert.equal((await phonePicks(phone, phoneFlow, code)).status, 303);
  });
});
