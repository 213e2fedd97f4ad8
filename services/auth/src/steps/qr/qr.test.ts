import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { MemoryEventBus } from '@sesame/events';
import type { SoftwareAuthenticator } from '../../passkeys/software-authenticator';
import { assertActions } from '../../testing/events';
import { TestBrowser, authorizePath, flowEventsReader, startAuth } from '../../testing/hosted-test-client';
import {
  assertDeclinedOnPhone,
  desktopAtQr,
  mobileLinkOf,
  phoneBrowser,
  phoneByCode,
  phoneByPasskey,
  phoneCreatesPasskey,
  phoneOpens,
} from '../../testing/qr';

type Auth = Awaited<ReturnType<typeof startAuth>>;
const rp = /^https:\/\/rp\.example\/cb\?code=code-\d+&state=st-1&iss=http%3A%2F%2Flocalhost$/;
const status = async (browser: TestBrowser, flow: string) =>
  JSON.parse((await browser.request(`${flow}/mobile/status`)).body).state as string;

/** Desktop to mobile over HTTP: a desktop and a phone browser, each with its own cookies, session and device. */
describe('desktop to mobile (auth service, in-memory stores, two browsers)', () => {
  let auth: Auth;
  let bus: MemoryEventBus;
  /** The flow's events published so far, in order (one flow keeps to one partition). */
  const eventsOf = flowEventsReader(() => bus);
  const email = 'phone-user@example.com';
  let phone: TestBrowser;
  let phonePasskey: SoftwareAuthenticator;

  beforeAll(async () => {
    bus = new MemoryEventBus();
    auth = await startAuth({ bus });
    phone = phoneBrowser(auth);
  });
  afterAll(() => auth.stop());

  it('the identify page offers Use my phone: the sign-in form posted to the flow’s mobile step, no address needed', async () => {
    const page = await auth.browser().request(authorizePath());
    const flow = TestBrowser.formAction(page.body).replace(/\/email$/, '');
    assert.match(
      page.body,
      new RegExp(
        `<button type="submit" form="sign-in" class="secondary" formaction="${flow}/mobile" formnovalidate>Use my phone</button>`,
      ),
    );
    assert.equal([...page.body.matchAll(/name="csrf"/g)].length, 1);
  });

  it('the phone signs in by email code and creates a passkey; the desktop continues with amr ts.svc.ama + ts.svc.email_otp and two devices', async () => {
    const { desktop, flow, link, page } = await desktopAtQr(auth);
    assert.match(page.body, /<img src="data:image\/svg\+xml;base64,[^"]+" alt="QR code"/);
    const phoneFlow = await phoneOpens(phone, link);
    assert.match(phoneFlow, /^\/flow\/[0-9a-f-]{36}$/);
    assert.notEqual(phoneFlow, flow);
    const phonePage = await phone.request(phoneFlow);
    assert.doesNotMatch(phonePage.body, /Use my phone/);
    assert.equal(await status(desktop, flow), 'pending');
    assert.match((await desktop.request(flow)).body, /Your phone opened the link/);

    const csrf = await phoneByCode(auth, phone, phoneFlow, email);
    assert.match((await phone.request(`${phoneFlow}/continue`)).body, />Create a passkey</);
    phonePasskey = await phoneCreatesPasskey(phone, phoneFlow, csrf);
    const done = await phone.request(`${phoneFlow}/continue`);
    assert.equal(done.status, 200);
    assert.match(done.body, /<h1>You can go back to your computer<\/h1>/);

    assert.equal(await status(desktop, flow), 'ready');
    assert.equal((await desktop.request(`${flow}/mobile/next`)).location, `${flow}/continue`);
    const back = await desktop.request(`${flow}/continue`);
    assert.match(back.location, rp);
    const claims = auth.issued.at(-1)?.claims;
    assert.deepEqual(claims?.amr, ['ts.svc.ama', 'ts.svc.email_otp']);
    assert.deepEqual(
      [claims?.svcInfo?.originatingDevice?.osType, claims?.svcInfo?.authenticatingDevice?.osType],
      ['Linux', 'Android'],
    );
    assert.equal(claims?.networkInfo?.deviceCount, 2);
    const user = await auth.users.users.findByEmail(email);
    const [passkey] = await auth.passkeys.listForUser(user!.userId);
    const devices = await auth.users.devices.listForUser(user!.userId);
    assert.equal(devices.find((d) => d.deviceId === passkey?.deviceId)?.facts.osType, 'Android');
  });

  it('the phone signs in with its passkey: amr ts.svc.ama + ts.svc.mfca; a second desktop makes three devices', async () => {
    const { desktop, flow, link } = await desktopAtQr(auth);
    const phoneFlow = await phoneOpens(phone, link);
    await phoneByPasskey(phone, phoneFlow, phonePasskey);
    assert.match((await phone.request(`${phoneFlow}/continue`)).body, /You can go back to your computer/);
    assert.equal((await desktop.request(`${flow}/mobile/next`)).location, `${flow}/continue`);
    assert.match((await desktop.request(`${flow}/continue`)).location, rp);
    const claims = auth.issued.at(-1)?.claims;
    assert.deepEqual(claims?.amr, ['ts.svc.ama', 'ts.svc.mfca']);
    // The first desktop and the phone are known; this desktop (a new browser) is the third.
    assert.equal(claims?.networkInfo?.deviceCount, 3);
  });

  it('a phone passkey without user verification ends the desktop with xm_mfca_required; the phone is told', async () => {
    const { desktop, flow, link } = await desktopAtQr(auth);
    const phoneFlow = await phoneOpens(phone, link);
    const csrf = TestBrowser.csrf((await phone.request(phoneFlow)).body);
    const options = await phone.request(`${phoneFlow}/passkey/sign-in-options`, { json: { csrf } });
    const response = phonePasskey.get(JSON.parse(options.body), {
      origin: 'http://localhost',
      userVerified: false,
    });
    const answer = await phone.request(`${phoneFlow}/passkey/sign-in`, { json: { csrf, response } });
    const { location } = JSON.parse(answer.body) as { location: string };
    assert.equal(location, '/mobile/refused');
    assert.match((await phone.request(location)).body, /<h1>Sign-in not possible<\/h1>/);
    const end = new URL((await desktop.request(`${flow}/mobile/next`)).location);
    assert.equal(end.searchParams.get('error'), 'xm_mfca_required');
  });

  it('records the whole flow under the desktop flow’s id: use_mobile, user_scan_qr, auth_start_ama, auth_complete', async () => {
    const { desktop, flow, link } = await desktopAtQr(auth);
    const phoneFlow = await phoneOpens(phone, link);
    await phoneByPasskey(phone, phoneFlow, phonePasskey);
    await phone.request(`${phoneFlow}/continue`);
    await desktop.request(`${flow}/continue`);
    const events = eventsOf(flow.replace('/flow/', ''));
    assertActions(events, [
      'auth_start_oidc',
      'desktop_login_page',
      'new_qr_generated',
      'user_scan_qr',
      'auth_start_ama',
      'biometric_verification_success',
      'auth_complete',
    ]);
    assert.equal(events.find((e) => e.action === 'new_qr_generated')?.desktopLoginDecision, 'use_mobile');
    const complete = events.at(-1);
    assert.deepEqual(
      [complete?.status, complete?.authMethodType, complete?.authenticatingDeviceInfo?.osType],
      ['success', 'fido2', 'Android'],
    );
    // Accessed from the desktop: every event names the desktop's device, whoever recorded it.
    assert.ok(events.every((e) => e.accessingDeviceInfo?.osType === 'Linux'));
    assert.deepEqual(eventsOf(phoneFlow.replace('/flow/', '')), []);
  });

  it('the link works once: a second open shows the link-invalid page and changes nothing', async () => {
    const { desktop, flow, link } = await desktopAtQr(auth);
    await phoneOpens(phone, link);
    const again = await phoneBrowser(auth).request(link);
    assert.equal(again.status, 410);
    assert.match(again.body, /This link has expired or was already used/);
    assert.equal(await status(desktop, flow), 'pending');
  });

  it('a link is bound to the QR its flow shows now: the QR shown before a reload is refused', async () => {
    const { desktop, flow, link } = await desktopAtQr(auth);
    const reloaded = mobileLinkOf((await desktop.request(flow)).body);
    assert.notEqual(reloaded, link);
    assert.equal((await phoneBrowser(auth).request(link)).status, 410);
    assert.equal((await phoneBrowser(auth).request(reloaded)).status, 303);
  });

  it('a link opens only its own flow: another desktop’s QR stays unopened', async () => {
    const a = await desktopAtQr(auth);
    const b = await desktopAtQr(auth);
    await phoneOpens(phoneBrowser(auth), a.link);
    assert.match((await a.desktop.request(a.flow)).body, /Your phone opened the link/);
    assert.match((await b.desktop.request(b.flow)).body, /alt="QR code"/);
  });

  it('tells the status only to the desktop’s browser; another browser cannot drive the flow', async () => {
    const { flow } = await desktopAtQr(auth);
    const stranger = auth.browser();
    assert.equal(await status(stranger, flow), 'expired');
    assert.equal((await stranger.request(`${flow}/mobile/next`)).status, 403);
  });

  it('shows the QR by itself when the typed address has passkeys only on other devices; Use an email code instead sends the code', async () => {
    const desktop = auth.browser();
    const first = await desktop.request(authorizePath({ scope: 'openid', prompt: 'login' }));
    const csrf = TestBrowser.csrf(first.body);
    const flow = TestBrowser.formAction(first.body).replace(/\/email$/, '');
    const mails = () => auth.outbox.list().filter((m) => m.to === email).length;
    const before = mails();
    assert.equal((await desktop.request(`${flow}/email`, { form: { csrf, email } })).location, flow);
    const qr = await desktop.request(flow);
    assert.ok(mobileLinkOf(qr.body));
    assert.equal(mails(), before);
    assert.equal(TestBrowser.formAction(qr.body), `${flow}/mobile/email-instead`);
    // One press: the code is mailed and the code page follows (no second Continue on the address).
    assert.equal((await desktop.request(`${flow}/mobile/email-instead`, { form: { csrf } })).location, flow);
    assert.equal(mails(), before + 1);
    const codePage = await desktop.request(flow);
    assert.match(codePage.body, /Verification code/);
    const proven = await desktop.request(`${flow}/code`, { form: { csrf, code: auth.codeFor(email) } });
    assert.equal(proven.status, 303);
    // And the QR does not come back in this flow.
    assert.doesNotMatch((await desktop.request(flow)).body, /data-mobile-link/);
  });

  it('asks the approval on the phone (ama_consent); Deny there ends the desktop with access_denied', async () => {
    const approval = { display_data: { attributes: [{ label: 'Door', value: 'Lab 3' }] } };
    const claims = JSON.stringify({ id_token: { svc_approval: { value: approval } } });
    const { desktop, flow, link } = await desktopAtQr(auth, { claims });
    const phoneFlow = await phoneOpens(phone, link);
    const csrf = await phoneByPasskey(phone, phoneFlow, phonePasskey);
    const consent = await phone.request(`${phoneFlow}/continue`);
    assert.match(consent.body, /Lab 3/);
    const denied = await phone.request(`${phoneFlow}/consent`, { form: { csrf, decision: 'deny' } });
    await assertDeclinedOnPhone(denied, desktop, `${flow}/mobile`, 'st-1');
    const events = eventsOf(flow.replace('/flow/', ''));
    assert.equal(
      events.find((e) => e.action === 'new_qr_generated')?.desktopTransactionDecision,
      'use_mobile',
    );
    const consented = events.find((e) => e.action === 'ama_consent');
    assert.deepEqual([consented?.consentDecision, consented?.status], ['reject', 'failure']);
  });
});
