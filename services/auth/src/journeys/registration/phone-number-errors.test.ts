import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import {
  phoneRegistrationHarness,
  registrationTaken,
  smsCodeFor,
  wrongCode,
} from '../../testing/phone-registration';

/** The registration's phone step refusing: each case leaves no number on the user and stays at the phone step. */
describe('registration by link: the phone step’s errors', () => {
  const h = phoneRegistrationHarness();

  async function atCode(email: string, phone: string) {
    const taken = await registrationTaken(h, email);
    const sent = await taken.browser.request(`${taken.flow}/phone-number`, {
      form: { csrf: taken.csrf, phone },
    });
    assert.equal(sent.location, `${taken.flow}/phone-number/code`);
    return { ...taken, code: `${taken.flow}/phone-number/code`, right: smsCodeFor(h, phone) };
  }
  const phoneOf = async (email: string) => (await h.auth.users.users.findByEmail(email))?.phoneNumber;

  it('an invalid number is a 400 with the invalid-number error, and no text is sent', async () => {
    const { browser, csrf, flow } = await registrationTaken(h, 'badnumber@example.com');
    const before = h.sms.list().length;
    const res = await browser.request(`${flow}/phone-number`, { form: { csrf, phone: '079 123' } });
    assert.equal(res.status, 400);
    assert.match(res.body, /role="alert">Enter a mobile number with its country code/);
    assert.equal(h.sms.list().length, before);
  });

  it('a wrong code is a 400 with the attempts left; nothing stored, still no passkey step', async () => {
    const { browser, csrf, flow, code, right } = await atCode('wrong@example.com', '+41795550201');
    const res = await browser.request(code, { form: { csrf, code: wrongCode(right) } });
    assert.equal(res.status, 400);
    assert.match(
      res.body,
      /That code is not right\. Check the text message and try again\. 4 attempts left\./,
    );
    assert.equal(await phoneOf('wrong@example.com'), undefined);
    assert.equal((await browser.request(flow)).location, `${flow}/phone-number`);
  });

  it('after 5 wrong codes the code is dead: the too-many-attempts error, even for the right code', async () => {
    const { browser, csrf, code, right } = await atCode('five@example.com', '+41795550202');
    for (let i = 0; i < 4; i++) await browser.request(code, { form: { csrf, code: wrongCode(right) } });
    const fifth = await browser.request(code, { form: { csrf, code: wrongCode(right) } });
    assert.equal(fifth.status, 400);
    assert.match(fifth.body, /Too many attempts\. Request a new code\./);
    const late = await browser.request(code, { form: { csrf, code: right } });
    assert.equal(late.status, 400);
    assert.match(late.body, /Too many attempts\. Request a new code\./);
    assert.equal(await phoneOf('five@example.com'), undefined);
  });

  it('a new code after a dead one verifies the number', async () => {
    const { browser, csrf, flow, code } = await atCode('again@example.com', '+41795550203');
    for (let i = 0; i < 5; i++) await browser.request(code, { form: { csrf, code: 'abc' } });
    await browser.request(`${flow}/phone-number`, { form: { csrf, phone: '+41795550203' } });
    const ok = await browser.request(code, { form: { csrf, code: smsCodeFor(h, '+41795550203') } });
    assert.deepEqual([ok.status, ok.location], [303, flow]);
    assert.equal(await phoneOf('again@example.com'), '+41795550203');
  });

  it('after 5 wrong codes the page offers Send a new code first; the code it texts verifies the number', async () => {
    const { browser, csrf, flow, code, right } = await atCode('resend@example.com', '+41795550204');
    for (let i = 0; i < 4; i++) await browser.request(code, { form: { csrf, code: wrongCode(right) } });
    const dead = await browser.request(code, { form: { csrf, code: wrongCode(right) } });
    assert.equal(/<form method="post" action="([^"]+)"/.exec(dead.body)?.[1], `${code}/resend`);
    const resent = await browser.request(`${code}/resend`, { form: { csrf } });
    assert.equal(resent.status, 200);
    assert.match(resent.body, /We sent a new code\. Check your text messages\./);
    const fresh = smsCodeFor(h, '+41795550204');
    assert.notEqual(fresh, right);
    const ok = await browser.request(code, { form: { csrf, code: fresh } });
    assert.deepEqual([ok.status, ok.location], [303, flow]);
    assert.equal(await phoneOf('resend@example.com'), '+41795550204');
  });
});

describe('registration by link: an expired SMS code (codes live 1 s here)', () => {
  const h = phoneRegistrationHarness({ SESAME_EMAIL_CODE_TTL_S: '1' });

  it('is refused with the expired-code error and stores nothing', async () => {
    const { browser, csrf, flow } = await registrationTaken(h, 'late@example.com');
    await browser.request(`${flow}/phone-number`, { form: { csrf, phone: '+41795550204' } });
    await new Promise((r) => setTimeout(r, 1100));
    const res = await browser.request(`${flow}/phone-number/code`, {
      form: { csrf, code: smsCodeFor(h, '+41795550204') },
    });
    assert.equal(res.status, 400);
    assert.match(res.body, /That code has expired\. Send a new code\./);
    assert.equal((await h.auth.users.users.findByEmail('late@example.com'))?.phoneNumber, undefined);
  });
});

describe('registration by link: the SMS cannot be sent', () => {
  const h = phoneRegistrationHarness();

  it('says so with 503 on the phone page and stores nothing', async () => {
    h.sms.send = async () => {
      throw new Error('provider down');
    };
    const { browser, csrf, flow } = await registrationTaken(h, 'nosms@example.com');
    const res = await browser.request(`${flow}/phone-number`, { form: { csrf, phone: '+41795550205' } });
    assert.equal(res.status, 503);
    assert.match(res.body, /We could not send the text message just now/);
    assert.equal((await browser.request(`${flow}/phone-number/code`)).location, `${flow}/phone-number`);
  });
});
