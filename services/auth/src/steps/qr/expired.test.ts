import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { forms, texts } from '../../pages/page-fixtures';
import { authWithEvents } from '../../testing/auth-with-events';
import { TestBrowser, authorizePath, type startAuth } from '../../testing/hosted-test-client';
import { memberWithPasskeyElsewhere } from '../../testing/passkey-user';
import { desktopAtQr, mobileLinkOf, phoneBrowser, phoneOpens } from '../../testing/qr';

type Auth = Awaited<ReturnType<typeof startAuth>>;

const pastOpenTime = () => new Promise((r) => setTimeout(r, 1100));
const status = async (browser: TestBrowser, flow: string) =>
  (JSON.parse((await browser.request(`${flow}/mobile/status`)).body) as { state: string }).state;

/** A desktop whose QR ran out unopened, at "The code expired". */
async function desktopAtExpired(auth: Auth) {
  const atQr = await desktopAtQr(auth);
  await pastOpenTime();
  const page = await atQr.desktop.request(atQr.flow);
  return { ...atQr, page, csrf: TestBrowser.csrf(page.body) };
}

/** Issue 25: when the QR's open time passes unopened, the desktop offers a new code instead of ending the flow. */
describe('desktop to mobile: the code expired (1 s open time here)', () => {
  const { auth, eventsOf } = authWithEvents({ env: { SESAME_QR_OPEN_TIMEOUT_S: '1' } });

  it('shows "The code expired" with Show a new code, Cancel and Back to <app>, each a form with the CSRF token', async () => {
    const { flow, page, csrf } = await desktopAtExpired(auth);
    assert.equal(page.status, 200);
    assert.equal(page.headers.get('cache-control'), 'no-store');
    assert.match(
      page.headers.get('content-security-policy') ?? '',
      /form-action 'self' https:\/\/rp\.example/,
    );
    assert.deepEqual(texts(page.body, 'h1'), ['The code expired']);
    assert.match(page.body, /The code was not opened on a phone within 1 seconds/);
    assert.deepEqual(
      forms(page.body).map((f) => [
        f.attrs.action,
        f.buttons,
        f.hidden.find((h) => h.name === 'csrf')?.value,
      ]),
      [
        [`${flow}/mobile/new-code`, ['Show a new code'], csrf],
        [`${flow}/mobile/cancel`, ['Cancel'], csrf],
        [`${flow}/mobile/back`, ['Back to Shop'], csrf],
      ],
      'no email code offered: no address was typed',
    );
    assert.doesNotMatch(page.body, /data-mobile-link|data-status-url/, 'no QR and no wait');
  });

  it('Show a new code draws a new link that opens on the phone; the expired one stays refused; new_qr_generated', async () => {
    const { desktop, flow, link, csrf } = await desktopAtExpired(auth);
    const flowId = flow.replace('/flow/', '');
    const generated = () => eventsOf(flowId).filter((e) => e.action === 'new_qr_generated').length;
    const before = generated();
    const renewed = await desktop.request(`${flow}/mobile/new-code`, { form: { csrf } });
    assert.deepEqual([renewed.status, renewed.location], [303, flow]);
    const qr = await desktop.request(flow);
    const fresh = mobileLinkOf(qr.body);
    assert.ok(fresh && fresh !== link, 'a new link');
    assert.equal(generated(), before + 1);
    assert.equal(await status(desktop, flow), 'pending', 'waiting again');
    assert.equal((await phoneBrowser(auth).request(link)).status, 410, 'the expired link is dead');
    await phoneOpens(phoneBrowser(auth), fresh);
  });

  it('Cancel goes back to the sign-in page; the sign-in goes on', async () => {
    const { desktop, flow, csrf } = await desktopAtExpired(auth);
    const cancelled = await desktop.request(`${flow}/mobile/cancel`, { form: { csrf } });
    assert.deepEqual([cancelled.status, cancelled.location], [303, flow]);
    assert.deepEqual(texts((await desktop.request(flow)).body, 'h1'), ['Sign in']);
  });

  it('Back to <app> records the device_auth failure with its reason; before the time is up it does nothing', async () => {
    const { desktop, flow, page: qr } = await desktopAtQr(auth);
    const csrf = TestBrowser.csrf(qr.body);
    const early = await desktop.request(`${flow}/mobile/back`, { form: { csrf } });
    assert.deepEqual([early.status, early.location], [303, flow]);
    assert.equal(await status(desktop, flow), 'pending', 'still the same QR');

    await pastOpenTime();
    const back = await desktop.request(`${flow}/mobile/back`, { form: { csrf } });
    assert.equal(new URL(back.location).searchParams.get('error'), 'unsupported_browser');
    const failure = eventsOf(flow.replace('/flow/', '')).find((e) => e.action === 'device_auth');
    assert.deepEqual(
      [failure?.status, failure?.errorCode, failure?.failureReason],
      ['failure', 'auth_failure', 'the QR code was not opened on a phone in time'],
    );
    assert.equal(auth.issued.length, 0);
  });

  it('Back to <app> needs the CSRF token', async () => {
    const { desktop, flow } = await desktopAtExpired(auth);
    const forged = await desktop.request(`${flow}/mobile/back`, { form: { csrf: 'wrong' } });
    assert.equal(forged.status, 403);
    assert.match((await desktop.request(flow)).body, /<h1>The code expired<\/h1>/, 'the flow goes on');
  });

  it('after a typed address, the expired code also offers Use an email code instead, which mails the code', async () => {
    const email = 'expired-qr@example.com';
    await memberWithPasskeyElsewhere(auth, email, { tenantId: 'tenant-1', appId: 'app-1' });
    const desktop = auth.browser();
    const first = await desktop.request(authorizePath({ scope: 'openid', prompt: 'login' }));
    const csrf = TestBrowser.csrf(first.body);
    const flow = TestBrowser.formAction(first.body).replace(/\/email$/, '');
    assert.equal((await desktop.request(`${flow}/email`, { form: { csrf, email } })).location, flow);
    assert.ok(mobileLinkOf((await desktop.request(flow)).body), 'the QR by itself');
    await pastOpenTime();
    const expired = await desktop.request(flow);
    assert.deepEqual(
      forms(expired.body).map((f) => f.buttons[0]),
      ['Show a new code', 'Use an email code instead', 'Cancel', 'Back to Shop'],
    );
    const instead = await desktop.request(`${flow}/mobile/email-instead`, { form: { csrf } });
    assert.equal(instead.location, flow);
    assert.equal(auth.outbox.list().filter((m) => m.to === email).length, 1);
    assert.match((await desktop.request(flow)).body, /Verification code/);
  });
});
