import assert from 'node:assert/strict';
import { beforeAll, describe, it } from '@jest/globals';
import type { users } from '@sesame/proto';
import { SoftwareAuthenticator } from '../../passkeys/software-authenticator';
import { authWithEvents } from '../../testing/auth-with-events';
import { assertActions } from '../../testing/events';
import { TestBrowser, startAuth } from '../../testing/hosted-test-client';
import { assertDeclinedOnPhone, phoneBrowser, desktopAtQr as signInAtQr } from '../../testing/qr';
import { startedForSuite } from '../../testing/suite';

type Auth = Awaited<ReturnType<typeof startAuth>>;
const origin = 'http://localhost';
const request: users.CreateInteractiveFlowRequest = {
  tenantId: 'tenant-1',
  appId: 'app-1',
  clientId: 'client-1',
  userId: 'user-p',
  purpose: 'device_enrollment',
  redirectUri: 'https://rp.example/cb',
  state: 's-9',
};
const enrollLinkOf = (html: string) =>
  /href="(\/enroll\/m\/[\w-]{43})" data-mobile-link/.exec(html)?.[1] ?? '';

/** A desktop that opened an interactive init URL and chose "Add a phone instead": the QR page's link. */
async function desktopAtQr(auth: Auth) {
  const { url } = await auth.usersGrpc.createInteractiveFlow(request, undefined as never);
  const desktop = auth.browser();
  const opened = await desktop.request(new URL(url).pathname);
  const flow = opened.location;
  const page = await desktop.request(flow);
  const csrf = TestBrowser.csrf(page.body);
  assert.equal(TestBrowser.formAction(page.body, 0), `${flow}/phone`);
  const chose = await desktop.request(`${flow}/phone`, { form: { csrf } });
  assert.equal(chose.location, flow);
  const qr = await desktop.request(flow);
  const link = enrollLinkOf(qr.body);
  assert.ok(link, 'the QR page shows the link');
  return { desktop, flow, link, qr };
}

const status = async (browser: TestBrowser, flow: string) =>
  JSON.parse((await browser.request(`${flow}/phone/status`)).body).state as string;

/** The phone opens the link and creates a passkey on its enrollment page; answers the passkey step's JSON. */
async function phoneEnrolls(phone: TestBrowser, link: string) {
  const opened = await phone.request(link);
  assert.equal(opened.status, 303, `opening ${link}: ${opened.status}`);
  const page = await phone.request(opened.location);
  assert.equal(page.status, 200);
  assert.doesNotMatch(page.body, /Add a phone instead/);
  const csrf = TestBrowser.csrf(page.body);
  const box = /data-options-url="([^"]+)" data-verify-url="([^"]+)"/.exec(page.body);
  const options = await phone.request(box?.[1] ?? '', { json: { csrf } });
  assert.equal(options.status, 200, options.body);
  const authenticator = new SoftwareAuthenticator();
  const created = await phone.request(box?.[2] ?? '', {
    json: { csrf, response: authenticator.create(JSON.parse(options.body), { origin }) },
  });
  return { authenticator, created, page };
}

describe('device enrollment on a phone by QR (two browsers)', () => {
  const { auth, eventsOf } = authWithEvents();
  beforeAll(async () => {
    await auth.users.users.create({ userId: 'user-p', email: 'phone-enroll@example.com', createdAt: 1 });
  });

  it('the phone creates a passkey for the user on its own device; the desktop redirects with state; one record of events', async () => {
    const { desktop, flow, link, qr } = await desktopAtQr(auth);
    assert.match(qr.body, /<h1>Add a phone<\/h1>/);
    assert.match(qr.body, /<img src="data:image\/svg\+xml;base64,[^"]+" alt="QR code"/);
    assert.equal(await status(desktop, flow), 'pending');
    const phone = phoneBrowser(auth);
    const { authenticator, created } = await phoneEnrolls(phone, link);
    assert.equal(created.status, 200, created.body);
    const done = await phone.request(JSON.parse(created.body).location);
    assert.match(done.body, /<h1>You can go back to your computer<\/h1>/);

    const passkey = await auth.passkeys.get(authenticator.credentialId);
    assert.equal(passkey?.userId, 'user-p');
    const devices = await auth.users.devices.listForUser('user-p');
    assert.equal(devices.find((d) => d.deviceId === passkey?.deviceId)?.facts.osType, 'Android');

    assert.equal(await status(desktop, flow), 'ready');
    const end = await desktop.request(`${flow}/phone/next`);
    assert.equal(end.location, 'https://rp.example/cb?state=s-9');
    assert.equal((await desktop.request(flow)).status, 410);

    const events = eventsOf(flow.split('/').at(-1)!);
    assertActions(events, [
      'enroll_start_native',
      'new_qr_generated',
      'user_scan_qr',
      'new_device_registered',
      'enroll_native_complete',
    ]);
    assert.ok(events.every((e) => e.flowType === 'enrollment' && e.userId === 'user-p'));
    assert.equal(events.at(-1)?.status, 'success');
  });

  it('the link works once: a second open shows the link-invalid page and the desktop keeps waiting', async () => {
    const { desktop, flow, link } = await desktopAtQr(auth);
    assert.equal((await phoneBrowser(auth).request(link)).status, 303);
    const again = await phoneBrowser(auth).request(link);
    assert.equal(again.status, 410);
    assert.match(again.body, /<h1>Link not valid<\/h1>/);
    assert.equal(await status(desktop, flow), 'pending');
    assert.match((await desktop.request(flow)).body, /Your phone opened the link/);
  });

  it('a link opens only its own enrollment: another enrollment’s phone pages refuse the phone', async () => {
    const a = await desktopAtQr(auth);
    const b = await desktopAtQr(auth);
    const phone = phoneBrowser(auth);
    const opened = await phone.request(a.link);
    assert.equal(opened.location, `${a.flow}/phone/enroll`);
    // The phone's session belongs to a, not b: b's phone page and passkey step refuse it.
    assert.equal((await phone.request(`${b.flow}/phone/enroll`)).status, 403);
    const csrf = TestBrowser.csrf((await phone.request(opened.location)).body);
    const options = await phone.request(`${b.flow}/phone/passkey/create-options`, { json: { csrf } });
    assert.equal(options.status, 403);
    // b is still unopened: its page draws a new QR (the earlier link is dead from now on).
    const bLink = enrollLinkOf((await b.desktop.request(b.flow)).body);
    assert.ok(bLink && bLink !== b.link);
    // Sign-in and enrollment links live apart: neither path takes the other's link, and the link stays good.
    assert.equal((await phoneBrowser(auth).request(bLink.replace('/enroll/m/', '/m/'))).status, 410);
    const signIn = await signInAtQr(auth);
    assert.equal((await phoneBrowser(auth).request(`/enroll${signIn.link}`)).status, 410);
    assert.equal((await phoneBrowser(auth).request(signIn.link)).status, 303);
    assert.equal((await phoneBrowser(auth).request(bLink)).status, 303);
  });

  it('Cancel on the phone tells the phone it was declined and ends the desktop with access_denied and state', async () => {
    const { desktop, flow, link } = await desktopAtQr(auth);
    const phone = phoneBrowser(auth);
    const opened = await phone.request(link);
    const csrf = TestBrowser.csrf((await phone.request(opened.location)).body);
    const cancelled = await phone.request(`${flow}/phone/cancel`, { form: { csrf } });
    await assertDeclinedOnPhone(cancelled, desktop, `${flow}/phone`, 's-9');
  });

  it('Cancel on the computer’s QR page ends the enrollment with access_denied and state; the link is dead', async () => {
    const { desktop, flow, link, qr } = await desktopAtQr(auth);
    const forms = [...qr.body.matchAll(/<form method="post" action="([^"]+)"/g)].map((m) => m[1]);
    assert.deepEqual(forms, [`${flow}/cancel`]);
    assert.match(qr.body, /<button type="submit" class="secondary">Cancel<\/button>/);
    const cancelled = await desktop.request(`${flow}/cancel`, { form: { csrf: TestBrowser.csrf(qr.body) } });
    assert.equal(cancelled.status, 303);
    const end = new URL(cancelled.location);
    assert.deepEqual(
      [end.origin + end.pathname, end.searchParams.get('error'), end.searchParams.get('state')],
      ['https://rp.example/cb', 'access_denied', 's-9'],
    );
    const phone = phoneBrowser(auth);
    const opened = await phone.request(link);
    assert.equal(opened.status, 410, 'the enrollment is over: its QR link opens nothing');
    const events = eventsOf(flow.split('/').at(-1)!);
    assert.deepEqual(
      events.filter((e) => e.action === 'enroll_native_complete').map((e) => e.status),
      ['failure'],
    );
  });

  it('the QR and phone pages are only for their own browsers; POSTs need the CSRF token', async () => {
    const { desktop, flow } = await desktopAtQr(auth);
    const stranger = auth.browser();
    assert.equal(await status(stranger, flow), 'expired');
    assert.equal((await stranger.request(`${flow}/phone/next`)).status, 403);
    assert.equal((await desktop.request(`${flow}/phone`, { form: { csrf: 'wrong' } })).status, 403);
    assert.equal((await desktop.request(`${flow}/phone/enroll`)).status, 403);
  });
});

describe('device enrollment on a phone: the QR’s open time (1 s here)', () => {
  const auth = startedForSuite(() => startAuth({ env: { SESAME_QR_OPEN_TIMEOUT_S: '1' } }));
  beforeAll(async () => {
    await auth.users.users.create({ userId: 'user-p', createdAt: 1 });
  });

  it('an expired link shows link-invalid on the phone; the desktop ends with unsupported_browser and state', async () => {
    const { desktop, flow, link } = await desktopAtQr(auth);
    await new Promise((r) => setTimeout(r, 1100));
    const late = await phoneBrowser(auth).request(link);
    assert.equal(late.status, 410);
    assert.equal(await status(desktop, flow), 'ready');
    assert.equal((await desktop.request(flow)).location, `${flow}/phone/next`);
    const end = new URL((await desktop.request(`${flow}/phone/next`)).location);
    assert.deepEqual(Object.fromEntries(end.searchParams), {
      error: 'unsupported_browser',
      error_description: 'the QR code was not opened with a supported browser within 1 seconds',
      state: 's-9',
    });
    assert.equal((await desktop.request(flow)).status, 410);
  });
});
