import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { SoftwareAuthenticator } from '../../passkeys/software-authenticator';
import { assertActions } from '../../testing/events';
import { TestBrowser, authorizePath, flowEventsReader } from '../../testing/hosted-test-client';
import {
  phoneRegistrationHarness,
  registrationTaken,
  smsCodeFor,
  wrongCode,
} from '../../testing/phone-registration';
import { phoneBrowser } from '../../testing/qr';

const origin = 'http://localhost';

describe('registration by link with verifications ts.svc.iac.phone_number', () => {
  const h = phoneRegistrationHarness();
  const eventsOf = flowEventsReader(() => h.bus);

  it('asks for the mobile number first: no passkey, Not now or Use my phone before it is verified', async () => {
    const { browser, csrf, flow } = await registrationTaken(h, 'ask@example.com');
    const step = await browser.request(flow);
    assert.deepEqual([step.status, step.location], [303, `${flow}/phone-number`]);
    const page = await browser.request(step.location);
    assert.match(page.body, /<h1>Verify your mobile number<\/h1>/);
    assert.match(page.body, /<label for="phone">Mobile number<\/label>/);
    assert.equal(TestBrowser.formAction(page.body), `${flow}/phone-number`);
    assert.equal((await browser.request(`${flow}/passkey/create-options`, { json: { csrf } })).status, 409);
    await browser.request(`${flow}/not-now`, { form: { csrf } });
    assert.equal((await browser.request(`${flow}/complete`)).location, flow, 'Not now did not complete');
    await browser.request(`${flow}/mobile`, { form: { csrf } });
    assert.equal((await browser.request(flow)).location, `${flow}/phone-number`, 'no QR before the phone');
  });

  it('a right SMS code stores phone_number and phone_number_verified, then the passkey step', async () => {
    const { browser, csrf, flow, flowId } = await registrationTaken(h, 'right@example.com');
    const sent = await browser.request(`${flow}/phone-number`, { form: { csrf, phone: '+41 79 555 01 01' } });
    assert.deepEqual([sent.status, sent.location], [303, `${flow}/phone-number/code`]);
    assert.match(smsCodeFor(h, '+41795550101'), /^\d{6}$/);
    const codePage = await browser.request(sent.location);
    assert.match(codePage.body, /We sent a 6-digit code to \+41795550101\./);
    assert.match(codePage.body, /<label for="code">SMS code<\/label>/);
    const before = await h.auth.users.users.findByEmail('right@example.com');
    assert.equal(before?.phoneNumber, undefined, 'no number on the user before the code');
    const verified = await browser.request(sent.location, {
      form: { csrf, code: smsCodeFor(h, '+41795550101') },
    });
    assert.deepEqual([verified.status, verified.location], [303, flow]);
    const step = await browser.request(flow);
    assert.match(step.body, /data-passkey-button hidden>Create a passkey</);
    const user = await h.auth.users.users.findByEmail('right@example.com');
    assert.equal(user?.phoneNumber, '+41795550101');
    assert.equal(typeof user?.phoneVerifiedAt, 'number');

    const options = await browser.request(`${flow}/passkey/create-options`, { json: { csrf } });
    const created = await browser.request(`${flow}/passkey/create`, {
      json: { csrf, response: new SoftwareAuthenticator().create(JSON.parse(options.body), { origin }) },
    });
    assert.deepEqual(JSON.parse(created.body), { location: `${flow}/complete` });
    const events = eventsOf(flowId);
    assertActions(events, [
      'custodian_registration_started',
      'new_user_registered',
      'email_verification_success',
      'user_send_sms',
      'sms_verification_success',
      'new_device_registered',
      'desktop_biometrics_registered',
      'custodian_registration_completed',
    ]);
    assert.ok(events.every((e) => e.flowType === 'enrollment'));
  });

  it('Not now after the phone is verified completes without a passkey; a later ID token carries the number', async () => {
    const { browser, csrf, flow, flowId } = await registrationTaken(h, 'notnow@example.com');
    await browser.request(`${flow}/phone-number`, { form: { csrf, phone: '+41795550102' } });
    await browser.request(`${flow}/phone-number/code`, {
      form: { csrf, code: smsCodeFor(h, '+41795550102') },
    });
    const later = await browser.request(`${flow}/not-now`, { form: { csrf } });
    assert.deepEqual([later.status, later.location], [303, `${flow}/complete`]);
    assert.match((await browser.request(`${flow}/complete`)).body, /<h1>You are registered<\/h1>/);
    const user = await h.auth.users.users.findByEmail('notnow@example.com');
    assert.deepEqual([user?.phoneNumber, typeof user?.phoneVerifiedAt], ['+41795550102', 'number']);
    assert.deepEqual(await h.auth.passkeys.listForUser(user!.userId), []);
    assert.equal(eventsOf(flowId).at(-1)?.action, 'custodian_registration_completed');

    // A later sign-in asking for the phone scope: the ID token's claims carry the verified number.
    const signIn = h.auth.browser();
    const first = await signIn.request(authorizePath({ scope: 'openid email phone', prompt: 'login' }));
    const signInCsrf = TestBrowser.csrf(first.body);
    const mailed = await signIn.request(TestBrowser.formAction(first.body), {
      form: { csrf: signInCsrf, email: 'notnow@example.com' },
    });
    const proven = await signIn.request(`${mailed.location}/code`, {
      form: { csrf: signInCsrf, code: h.auth.codeFor('notnow@example.com') },
    });
    assert.match((await signIn.request(proven.location)).body, /Your phone number/);
    await signIn.request(`${mailed.location}/consent`, { form: { csrf: signInCsrf, decision: 'approve' } });
    const claims = h.auth.issued.at(-1)?.claims;
    assert.equal(claims?.email, 'notnow@example.com');
    assert.equal(claims?.phoneNumber, '+41795550102');
    assert.equal(claims?.phoneNumberVerified, true);
  });

  it.each([[['ts.svc.iac.email']], [[]]])(
    'verifications %j: no phone step, the passkey step at once',
    async (verifications) => {
      const email = `plain${verifications.length}@example.com`;
      const { browser, flow } = await registrationTaken(h, email, verifications);
      const step = await browser.request(flow);
      assert.equal(step.status, 200);
      assert.match(step.body, /data-passkey-button hidden>Create a passkey</);
      assert.equal((await browser.request(`${flow}/phone-number`)).location, flow);
    },
  );

  it('Use my phone comes after the phone step: the phone by QR only creates the passkey', async () => {
    const { browser, csrf, flow } = await registrationTaken(h, 'qr@example.com');
    await browser.request(`${flow}/phone-number`, { form: { csrf, phone: '+41795550103' } });
    await browser.request(`${flow}/phone-number/code`, {
      form: { csrf, code: smsCodeFor(h, '+41795550103') },
    });
    await browser.request(`${flow}/mobile`, { form: { csrf } });
    const qr = await browser.request(flow);
    const link = /href="(\/register\/m\/[\w-]{43})" data-mobile-link/.exec(qr.body)?.[1] ?? '';
    assert.ok(link, 'the QR page shows the link once the phone is verified');
    const phone = phoneBrowser(h.auth);
    const opened = await phone.request(link);
    assert.equal(opened.location, `${flow}/phone`);
    const page = await phone.request(opened.location);
    assert.match(page.body, /data-passkey-button hidden>Create a passkey</);
    assert.doesNotMatch(page.body, /Mobile number/);
    const phoneCsrf = /data-csrf="([^"]+)"/.exec(page.body)?.[1] ?? '';
    const options = await phone.request(`${flow}/phone/passkey/create-options`, {
      json: { csrf: phoneCsrf },
    });
    const created = await phone.request(`${flow}/phone/passkey/create`, {
      json: {
        csrf: phoneCsrf,
        response: new SoftwareAuthenticator().create(JSON.parse(options.body), { origin }),
      },
    });
    assert.deepEqual(JSON.parse(created.body), { location: `${flow}/phone/complete` });
    const user = await h.auth.users.users.findByEmail('qr@example.com');
    assert.equal(user?.phoneNumber, '+41795550103');
  });

  it('records sms_verification_failure for a wrong code, in the registration’s record', async () => {
    const { browser, csrf, flow, flowId } = await registrationTaken(h, 'event@example.com');
    await browser.request(`${flow}/phone-number`, { form: { csrf, phone: '+41795550104' } });
    const code = wrongCode(smsCodeFor(h, '+41795550104'));
    await browser.request(`${flow}/phone-number/code`, { form: { csrf, code } });
    const last = eventsOf(flowId).at(-1);
    assert.deepEqual(
      [last?.action, last?.flowType, last?.failureReason],
      ['sms_verification_failure', 'enrollment', 'wrong SMS code'],
    );
  });
});
