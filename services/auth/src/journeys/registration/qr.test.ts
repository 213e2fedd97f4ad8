import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { SoftwareAuthenticator } from '../../passkeys/software-authenticator';
import { createPasskey } from '../../testing/create-passkey';
import { assertActions } from '../../testing/events';
import { TestBrowser, flowEventsReader } from '../../testing/hosted-test-client';
import { activationRequest } from '../../testing/invitations';
import { phoneRegistrationHarness } from '../../testing/phone-registration';
import { phoneBrowser } from '../../testing/qr';

const origin = 'http://localhost';
const linkOf = (html: string) => /href="(\/register\/m\/[\w-]{43})" data-mobile-link/.exec(html)?.[1] ?? '';

/** Invites `email`, takes the link on a desktop and chooses Use my phone: the QR page and its link. */
async function desktopAtQr(h: ReturnType<typeof phoneRegistrationHarness>, email: string) {
  const req = activationRequest({
    userEmail: email,
    aliasValue: email.split('@')[0],
    secondaryCompletionMessage: 'Your phone is ready for the Shop.',
  });
  const { flowId } = await h.client.createActivationLink(req);
  const mail = h.auth.outbox.list().find((m) => m.to === email);
  const link = /\/register\/[\w-]{43}/.exec(mail?.text ?? '')?.[0] ?? '';
  const desktop = h.auth.browser();
  const csrf = TestBrowser.csrf((await desktop.request(link)).body);
  const flow = (await desktop.request(link, { form: { csrf } })).location;
  const step = await desktop.request(flow);
  assert.match(step.body, /<button type="submit" class="secondary">Use my phone<\/button>/);
  const chose = await desktop.request(`${flow}/mobile`, { form: { csrf } });
  assert.equal(chose.location, flow);
  const qr = await desktop.request(flow);
  const phoneLink = linkOf(qr.body);
  assert.ok(phoneLink, 'the QR page shows the link');
  return { desktop, csrf, flow, flowId, link: phoneLink, qr };
}

const status = async (browser: TestBrowser, flow: string) =>
  JSON.parse((await browser.request(`${flow}/mobile/status`)).body).state as string;

describe('registration by link on a phone by QR (two browsers)', () => {
  const h = phoneRegistrationHarness();
  /** The flow's events published so far, in order (one flow keeps to one partition). */
  const eventsOf = flowEventsReader(() => h.bus);

  it('the phone creates the passkey and shows the secondary message; the desktop shows the normal completion page', async () => {
    const { desktop, flow, flowId, link, qr } = await desktopAtQr(h, 'grace@example.com');
    assert.match(qr.body, /<h1>Create your passkey on your phone<\/h1>/);
    const phone = phoneBrowser(h.auth);
    const opened = await phone.request(link);
    assert.equal(opened.location, `${flow}/phone`);
    const page = await phone.request(opened.location);
    const csrf = /data-csrf="([^"]+)"/.exec(page.body)?.[1] ?? '';
    assert.doesNotMatch(page.body, />Use my phone<|>Not now</);
    const { authenticator, created } = await createPasskey(phone, `${flow}/phone`, csrf);
    assert.deepEqual(JSON.parse(created.body), { location: `${flow}/phone/complete` });
    const phoneDone = await phone.request(`${flow}/phone/complete`);
    assert.match(phoneDone.body, /<h1>You are registered<\/h1>/);
    assert.match(phoneDone.body, /Your phone is ready for the Shop\./);
    assert.match(phoneDone.body, /Your computer continues by itself/);
    assert.doesNotMatch(phoneDone.body, /Continue to /, 'the way back to the app is the desktop’s');

    assert.equal(await status(desktop, flow), 'ready');
    assert.equal((await desktop.request(`${flow}/mobile/next`)).location, `${flow}/complete`);
    const desktopDone = await desktop.request(`${flow}/complete`);
    assert.match(desktopDone.body, /<h1>You are registered<\/h1>/);
    assert.doesNotMatch(desktopDone.body, /Your phone is ready/);

    const user = await h.auth.users.users.findByEmail('grace@example.com');
    const passkey = await h.auth.passkeys.get(authenticator.credentialId);
    assert.equal(passkey?.userId, user?.userId);
    const devices = await h.auth.users.devices.listForUser(user!.userId);
    assert.equal(devices.find((d) => d.deviceId === passkey?.deviceId)?.facts.osType, 'Android');
    const membership = await h.auth.users.memberships.get('tenant-1', 'app-1', user!.userId);
    assert.deepEqual(membership?.boundCredentials, [authenticator.credentialId]);
    assertActions(eventsOf(flowId), [
      'custodian_registration_started',
      'new_user_registered',
      'email_verification_success',
      'new_qr_generated',
      'user_scan_qr',
      'new_device_registered',
      'custodian_registration_completed',
    ]);
  });

  it('the link works once: a second open shows the link-invalid page and the desktop keeps waiting', async () => {
    const { desktop, flow, link } = await desktopAtQr(h, 'once@example.com');
    assert.equal((await phoneBrowser(h.auth).request(link)).status, 303);
    const again = await phoneBrowser(h.auth).request(link);
    assert.equal(again.status, 410);
    assert.match(again.body, /<h1>Link not valid<\/h1>/);
    assert.equal(await status(desktop, flow), 'pending');
  });

  it('a phone of one registration is refused by another registration’s phone pages', async () => {
    const a = await desktopAtQr(h, 'a@example.com');
    const b = await desktopAtQr(h, 'b@example.com');
    const phone = phoneBrowser(h.auth);
    const opened = await phone.request(a.link);
    const csrf = /data-csrf="([^"]+)"/.exec((await phone.request(opened.location)).body)?.[1] ?? '';
    assert.equal((await phone.request(`${b.flow}/phone`)).status, 403);
    const options = await phone.request(`${b.flow}/phone/passkey/create-options`, { json: { csrf } });
    assert.equal(options.status, 403);
    assert.equal((await phoneBrowser(h.auth).request(`/enroll/m/${b.link.split('/').at(-1)}`)).status, 410);
    assert.equal(await status(b.desktop, b.flow), 'pending');
  });
});

describe('registration by link on a phone: the QR’s open time (1 s here)', () => {
  const h = phoneRegistrationHarness({ SESAME_QR_OPEN_TIMEOUT_S: '1' });

  it('an expired link is refused on the phone; the desktop goes back to its passkey step', async () => {
    const { desktop, flow, link } = await desktopAtQr(h, 'late@example.com');
    await new Promise((r) => setTimeout(r, 1100));
    assert.equal((await phoneBrowser(h.auth).request(link)).status, 410);
    assert.equal(await status(desktop, flow), 'ready');
    assert.equal((await desktop.request(`${flow}/mobile/next`)).location, flow);
    const step = await desktop.request(flow);
    assert.match(step.body, /data-passkey-button hidden>Create a passkey</);
    assert.match(step.body, />Use my phone</);
  });
});
