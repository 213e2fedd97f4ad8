import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it, jest } from '@jest/globals';
import { eventually } from '@sesame/testing';
import {
  type Browser,
  type BrowserContext,
  checkPage,
  launchBrowser,
  phoneContext,
} from '@sesame/testing/browser';
import { decodeJwt } from 'jose';
import * as oidc from 'openid-client';
import { managementToken } from './admin-cli';
import { createCibaApp, poll, pollUntilDone, recorder, startCiba } from './ciba-support';
import { freshEmail, mailedCode } from './hosted-signin-support';
import { startRealPlatform } from './token-fixtures';

/**
 * CIBA end to end on the six services over the real Redis, Kafka, Mongo-wire and SMTP servers: an RP starts
 * requests at /authorize_ciba, the person completes the link in Debian's chromium (by accessible names), and
 * the RP gets its tokens by openid-client's CIBA functions (strict client), by raw polling (spec 3's 200
 * pending), or after a ping. The SMS provider and the ping receiver are loopback servers of this test.
 */
jest.setTimeout(240_000);

interface ActivityRecord {
  flowType: string;
  status: string;
  events: Array<{ payload: { details: { action: string } } }>;
}

/** Every request of this platform lives this long, so the expiry test does not wait 30 minutes. */
const LIFETIME_S = 45;

describe('CIBA end to end', () => {
  let env: Awaited<ReturnType<typeof startRealPlatform>>;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  let sms: Awaited<ReturnType<typeof recorder>>;
  let pings: Awaited<ReturnType<typeof recorder>>;
  let demo: { id: string; secret: string };
  const known = freshEmail('ciba-known');

  beforeAll(async () => {
    sms = await recorder((r) => ({ status: 201, json: { sid: `SM${r.body.length}` } }));
    pings = await recorder(() => ({ status: 204, json: {} }));
    env = await startRealPlatform('ciba', {
      smtp: true,
      env: {
        SESAME_MAILS_PER_IP: '100000',
        SESAME_CIBA_EXPIRES_IN_S: String(LIFETIME_S),
        SESAME_SMS_URL: `${sms.url}/2010-04-01/Accounts/AC1/Messages.json`,
        SESAME_SMS_FROM: '+15005550006',
        SESAME_SMS_USER: 'AC1',
        SESAME_SMS_PASSWORD: 'sms-token',
      },
    });
    demo = { id: env.demo.clientId, secret: env.demo.clientSecret };
    browser = await launchBrowser();
  });
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await env?.stop();
    await sms?.close();
    await pings?.close();
  });

  /** The person's side in chromium: the link, Continue, the email code, then Approve or Deny. */
  async function answerLink(
    link: string,
    email: string,
    decision: 'Approve' | 'Deny',
    opts: { hinted?: boolean; check?: string; phone?: string } = {},
  ) {
    const context = await phoneContext(browser);
    contexts.push(context);
    const page = await context.newPage();
    await page.goto(link);
    await page.getByRole('heading', { name: 'Sign-in request' }).waitFor();
    if (opts.check) await checkPage(page, `ciba-${opts.check}-start`);
    await page.getByRole('button', { name: 'Continue' }).click();
    const address = page.getByLabel('Email address');
    await address.waitFor();
    if (opts.hinted) assert.equal(await address.inputValue(), email);
    else await address.fill(email);
    const sentAfter = new Date();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByLabel('Verification code').fill(await mailedCode(email, sentAfter));
    await page.getByRole('button', { name: 'Verify' }).click();
    if (opts.phone) {
      // acr ts.svc.iac.phone_number: the number, then the code the provider received for it.
      const before = sms.seen.length;
      await page.getByLabel('Mobile number').fill(opts.phone);
      await page.getByRole('button', { name: 'Send code' }).click();
      const [text] = (await sms.count(before + 1)).slice(before);
      const code = /\b(\d{6})\b/.exec(new URLSearchParams(text?.body ?? '').get('Body') ?? '')?.[1] ?? '';
      await page.getByLabel('SMS code').fill(code);
      await page.getByRole('button', { name: 'Verify' }).click();
    }
    await page.getByRole('button', { name: decision }).click();
    const done = decision === 'Approve' ? 'Request approved' : 'Request denied';
    await page.getByRole('heading', { name: done }).waitFor();
    if (opts.check) await checkPage(page, `ciba-${opts.check}-done`);
    await context.close();
  }

  it('openid-client initiates and polls against a strict client; the link is completed in chromium', async () => {
    const strict = await createCibaApp(env.platform, env.demo.tenantId, 'ciba strict', {
      mode: 'poll',
      strictErrors: true,
    });
    const config = await oidc.discovery(
      new URL(env.platform.url),
      strict.id,
      strict.secret,
      oidc.ClientSecretBasic(strict.secret),
      { execute: [oidc.allowInsecureRequests] },
    );
    assert.equal(
      config.serverMetadata().backchannel_authentication_endpoint,
      `${env.platform.url}/authorize_ciba`,
    );
    const started = await oidc.initiateBackchannelAuthentication(config, {
      scope: 'openid email',
      channel: JSON.stringify({ type: 'direct_link' }),
      binding_message: 'Code 4F2K',
    });
    assert.equal(started.expires_in, LIFETIME_S);
    assert.equal(started.interval, 1);
    const link = String(started.link);
    const [tokens] = await Promise.all([
      oidc.pollBackchannelAuthenticationGrant(config, started),
      answerLink(link, known, 'Approve', { check: 'strict' }),
    ]);
    const claims = tokens.claims();
    assert.equal(claims?.email, known);
    assert.equal(claims?.aud, strict.id);
    assert.deepEqual(claims?.amr, ['ts.svc.email_otp']);
    assert.equal(tokens.token_type.toLowerCase(), 'bearer');
  });

  it('raw polling (spec 3, HTTP 200) shows link_sent, then link_opened, then the tokens once', async () => {
    const since = Date.now();
    const started = await startCiba(env.platform.url, demo, {
      scope: 'openid email',
      channel: JSON.stringify({ type: 'direct_link' }),
      login_hint: known,
    });
    const first = await poll(env.platform.url, demo, started.auth_req_id);
    assert.deepEqual(
      [first.status, first.body.error, first.body.status],
      [200, 'authorization_pending', 'link_sent'],
    );
    const opened = await fetch(String(started.link));
    assert.equal(opened.status, 200);
    await new Promise((r) => setTimeout(r, 1100)); // one polling interval
    const second = await poll(env.platform.url, demo, started.auth_req_id);
    assert.deepEqual(
      [second.status, second.body.error, second.body.status],
      [200, 'authorization_pending', 'link_opened'],
    );
    await answerLink(String(started.link), known, 'Approve', { hinted: true });
    const done = await pollUntilDone(env.platform.url, demo, started.auth_req_id);
    assert.equal(done.status, 200);
    assert.equal(decodeJwt(String(done.body.id_token)).email, known);
    const again = await pollUntilDone(env.platform.url, demo, started.auth_req_id);
    assert.equal(again.body.error, 'invalid_grant', 'the tokens are handed out once');

    // One activity record for the request, flowType ciba, from auth_start_native to auth_native_complete.
    const bearer = await managementToken(env.platform.url, env.demo.credentialsId, env.demo.apiSecret);
    const query = async () => {
      const res = await fetch(`${env.platform.url}/api/v1/mgmt/activity-logs`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${bearer}` },
        body: JSON.stringify({
          appId: env.demo.appId,
          credentialsId: env.demo.credentialsId,
          timeStart: since,
          timeEnd: Date.now() + 60_000,
        }),
      });
      return ((await res.json()) as { activityLogs: ActivityRecord[] }).activityLogs;
    };
    const actionsOf = (r: ActivityRecord) => r.events.map((e) => e.payload.details.action);
    const records = await eventually(
      query,
      (rs) => rs.some((r) => actionsOf(r).includes('auth_native_complete')),
      30_000,
      250,
    );
    assert.equal(records.length, 1);
    const [record] = records;
    assert.equal(record?.flowType, 'ciba');
    assert.equal(record?.status, 'success');
    const actions = actionsOf(record!);
    for (const action of [
      'auth_start_native',
      'desktop_login_page',
      'email_verification_success',
      'auth_native_complete',
    ])
      assert.ok(actions.includes(action), `${action} in ${actions.join(', ')}`);
  });

  it('ping mode: exactly one notification with the client_notification_token, then the RP gets tokens', async () => {
    const ping = await createCibaApp(env.platform, env.demo.tenantId, 'ciba ping', {
      mode: 'ping',
      notificationEndpoint: `${pings.url}/cb`,
    });
    const before = pings.seen.length;
    const started = await startCiba(env.platform.url, ping, {
      scope: 'openid email',
      channel: JSON.stringify({ type: 'direct_link' }),
      login_hint: known,
      client_notification_token: 'rp-bearer-8c1f',
    });
    await answerLink(String(started.link), known, 'Approve', { hinted: true });
    const [notification] = (await pings.count(before + 1)).slice(before);
    assert.equal(notification?.path, '/cb');
    assert.equal(notification?.authorization, 'Bearer rp-bearer-8c1f');
    assert.deepEqual(JSON.parse(notification?.body ?? '{}'), { auth_req_id: started.auth_req_id });
    const tokens = await poll(env.platform.url, ping, started.auth_req_id);
    assert.equal(tokens.status, 200);
    assert.equal(decodeJwt(String(tokens.body.id_token)).email, known);
    assert.equal(pings.seen.length, before + 1, 'exactly one notification');
  });

  it('the sms channel sends the link through the provider; the link completes the request with a verified phone', async () => {
    const before = sms.seen.length;
    const started = await startCiba(env.platform.url, demo, {
      scope: 'openid email phone',
      acr_values: 'ts.svc.iac.phone_number',
      channel: JSON.stringify({
        type: 'sms',
        target: '+41791234567',
        user_link_custom_message: 'Bank: confirm your login',
      }),
      login_hint: known,
    });
    assert.equal(started.link, undefined);
    const [message] = (await sms.count(before + 1)).slice(before);
    const form = new URLSearchParams(message?.body ?? '');
    assert.equal(message?.authorization, `Basic ${Buffer.from('AC1:sms-token').toString('base64')}`);
    assert.equal(form.get('To'), '+41791234567');
    assert.equal(form.get('From'), '+15005550006');
    // Issue 26: the app name and the real link come first, the client's words after them.
    const link = /^[^:\n]+: (http:\/\/\S+\/ciba\/[\w-]{43})\nBank: confirm your login$/.exec(
      form.get('Body') ?? '',
    )?.[1];
    assert.ok(link, `the SMS carries the link: ${form.get('Body')}`);
    await answerLink(link, known, 'Approve', { hinted: true, phone: '+41 79 765 43 21' });
    const done = await pollUntilDone(env.platform.url, demo, started.auth_req_id);
    assert.equal(done.status, 200);
    const idToken = decodeJwt(String(done.body.id_token));
    assert.equal(idToken.phone_number, '+41797654321');
    assert.equal(idToken.phone_number_verified, true);
    assert.equal(idToken.phone_number_last_update, 'Last 24 hours');
    assert.ok(String(idToken.acr).split(' ').includes('ts.svc.iac.phone_number'));
  });

  it('Deny on the link gives the RP access_denied', async () => {
    const started = await startCiba(env.platform.url, demo, {
      scope: 'openid email',
      channel: JSON.stringify({ type: 'direct_link' }),
      login_hint: known,
    });
    await answerLink(String(started.link), known, 'Deny', { hinted: true });
    const denied = await pollUntilDone(env.platform.url, demo, started.auth_req_id);
    assert.equal(denied.status, 400);
    assert.equal(denied.body.error, 'access_denied');
  });

  it('a request nobody answers expires: expired_token, and its link is gone', async () => {
    const started = await startCiba(env.platform.url, demo, {
      scope: 'openid',
      channel: JSON.stringify({ type: 'direct_link' }),
    });
    const expired = await pollUntilDone(
      env.platform.url,
      demo,
      started.auth_req_id,
      (LIFETIME_S + 15) * 1000,
    );
    assert.equal(expired.status, 400);
    assert.equal(expired.body.error, 'expired_token');
    assert.equal((await fetch(String(started.link))).status, 410);
  });
});
