import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it, jest } from '@jest/globals';
import {
  type Browser,
  type BrowserContext,
  type Page,
  checkPage,
  desktopContext,
  launchBrowser,
  virtualAuthenticator,
} from '@sesame/testing/browser';
import type * as oidc from 'openid-client';
import {
  authorizationRequest,
  catchCallbacks,
  freshEmail,
  mailedCode,
  redeemCallback,
  rpConfig,
} from './hosted-signin-support';
import { startRealPlatform } from './token-fixtures';

/**
 * Passkeys in Debian's chromium with the DevTools virtual authenticator (CTAP2, internal transport, resident
 * keys, user verification) against the six services on the real servers: a passkey is created after an email
 * code, then signs the person in with the email typed (allowCredentials) and without (discoverable); the RP
 * (openid-client) verifies ID tokens whose amr says how. Every page passes checkPage; the WebAuthn bundle
 * (passkeys.*.js) is left out of the 100 KB budget.
 */
jest.setTimeout(180_000);

const webAuthnBundle = /\/assets\/passkeys\.[0-9a-f]{10}\.js/;

describe('passkeys in a real browser', () => {
  let env: Awaited<ReturnType<typeof startRealPlatform>>;
  let browser: Browser;
  let config: oidc.Configuration;
  let context: BrowserContext;
  let page: Page;
  let callbacks: Awaited<ReturnType<typeof catchCallbacks>>;
  let authenticator: Awaited<ReturnType<typeof virtualAuthenticator>>;
  const email = freshEmail('passkey');
  const signInOptions: { email?: string; autofill: boolean }[] = [];
  /** Keeps the page's passkey autofill from starting, so that the button's ceremony is the one that runs. */
  let blockAutofill = true;

  beforeAll(async () => {
    env = await startRealPlatform('passkeys', { smtp: true, env: { SESAME_MAILS_PER_IP: '100000' } });
    browser = await launchBrowser();
    config = await rpConfig(env.platform.url, env.demo.clientId, env.demo.clientSecret);
    context = await desktopContext(browser);
    callbacks = await catchCallbacks(context);
    page = await context.newPage();
    authenticator = await virtualAuthenticator(page);
    // Every sign-in options request the page script makes: the email it sent, and whether for autofill.
    await context.route('**/passkey/sign-in-options', async (route) => {
      const sent = route.request().postDataJSON() as { email?: string; autofill: boolean };
      if (sent.autofill && blockAutofill) return route.abort();
      signInOptions.push({ email: sent.email, autofill: sent.autofill });
      await route.continue();
    });
  });
  afterAll(async () => {
    await context?.close().catch(() => undefined);
    await browser?.close();
    await env?.stop();
  });

  const check = (name: string) => checkPage(page, `passkeys-${name}`, { excludeUrl: webAuthnBundle });

  /** Waits for the page to land on the callback (so the next test's navigation is not interrupted), redeems it. */
  async function redeem(callbackUrl: string, req: Awaited<ReturnType<typeof authorizationRequest>>) {
    await page.waitForURL(callbackUrl);
    return redeemCallback(config, callbackUrl, req);
  }

  /** A fresh authorization request (prompt=login: the browser's session must not sign in by itself). */
  const request = () =>
    authorizationRequest(config, env.demo.redirectUri, { scope: 'openid', prompt: 'login' });

  let sub: string;
  const startedAt = Date.now();

  it('offers a passkey after the first email code, creates a discoverable one, and finishes the sign-in', async () => {
    const req = await request();
    await page.goto(req.url.href);
    await page.getByRole('button', { name: 'Use a passkey' }).waitFor();
    await check('identify');
    const sentAfter = new Date();
    await page.getByLabel('Email address').fill(email);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByLabel('Verification code').waitFor();
    await page.getByLabel('Verification code').fill(await mailedCode(email, sentAfter));
    await page.getByRole('button', { name: 'Verify' }).click();

    await page.getByRole('button', { name: 'Create a passkey' }).waitFor();
    assert.ok(await page.getByRole('button', { name: 'Not now' }).isVisible());
    await check('offer');
    const callback = callbacks.next();
    await page.getByRole('button', { name: 'Create a passkey' }).click();
    const claims = await redeem(await callback, req);
    assert.deepEqual(claims.amr, ['ts.svc.email_otp']);
    sub = claims.sub;

    const credentials = await authenticator.credentials();
    assert.equal(credentials.length, 1);
    assert.equal(credentials[0]!.isResidentCredential, true);
    assert.equal(credentials[0]!.rpId, 'localhost');
    assert.equal(Buffer.from(credentials[0]!.userHandle ?? '', 'base64').toString(), sub);
  });

  it('signs in with the passkey with the email typed: amr ts.svc.mfca, same sub', async () => {
    const req = await request();
    await page.goto(req.url.href);
    await page.getByLabel('Email address').fill(email);
    const callback = callbacks.next();
    const asked = signInOptions.length;
    await page.getByRole('button', { name: 'Use a passkey' }).click();
    const claims = await redeem(await callback, req);
    // The button asked with the typed email (the server then lists that person's passkeys).
    assert.deepEqual(signInOptions.slice(asked), [{ email, autofill: false }]);
    assert.deepEqual(claims.amr, ['ts.svc.mfca']);
    assert.equal(claims.sub, sub);
    assert.ok(Math.abs((claims.auth_time ?? 0) - Date.now() / 1000) < 120);
  });

  it('signs in with the passkey without the email (discoverable): amr ts.svc.mfca, same sub, no offer again', async () => {
    const req = await request();
    await page.goto(req.url.href);
    await page.getByRole('button', { name: 'Use a passkey' }).waitFor();
    assert.equal(await page.getByLabel('Email address').inputValue(), '');
    const callback = callbacks.next();
    const asked = signInOptions.length;
    await page.getByRole('button', { name: 'Use a passkey' }).click();
    const claims = await redeem(await callback, req);
    // The button's request: no email, so a discoverable passkey.
    assert.deepEqual(signInOptions.slice(asked), [{ email: undefined, autofill: false }]);
    assert.deepEqual(claims.amr, ['ts.svc.mfca']);
    assert.equal(claims.sub, sub);
    const credentials = await authenticator.credentials();
    assert.equal(credentials.length, 1);
    assert.ok(credentials[0]!.signCount >= 2, `signCount ${credentials[0]!.signCount}`);
  });

  it('signs in through the passkey autofill on the email field (conditional UI) without a click', async () => {
    blockAutofill = false;
    const req = await request();
    const asked = signInOptions.length;
    const callback = callbacks.next();
    await page.goto(req.url.href);
    const claims = await redeem(await callback, req);
    assert.deepEqual(claims.amr, ['ts.svc.mfca']);
    assert.equal(claims.sub, sub);
    assert.deepEqual(signInOptions.slice(asked), [{ email: undefined, autofill: true }]);
  });

  it('activity-logs shows each passkey sign-in as one record: authMethodType fido2, status success', async () => {
    const token = await fetch(`${env.platform.url}/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        scope: 'svc_admin_api',
        client_id: env.demo.credentialsId,
        client_secret: env.demo.apiSecret,
      }),
    });
    const { access_token } = (await token.json()) as { access_token: string };
    type LogRecord = { id: string; authMethodType?: string; status?: string };
    const logs = async () => {
      const res = await fetch(`${env.platform.url}/api/v1/mgmt/activity-logs`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${access_token}` },
        body: JSON.stringify({
          appId: env.demo.appId,
          credentialsId: env.demo.credentialsId,
          timeStart: startedAt,
          timeEnd: Date.now() + 60_000,
          userId: sub,
        }),
      });
      assert.equal(res.status, 200);
      return ((await res.json()) as { activityLogs: LogRecord[] }).activityLogs;
    };
    // The records arrive through Kafka and the activity-log consumer: ask until all four flows are there.
    const deadline = Date.now() + 60_000;
    let records = await logs();
    while (records.filter((r) => r.status === 'success').length < 4 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      records = await logs();
    }
    const done = records.filter((r) => r.status === 'success');
    assert.equal(new Set(done.map((r) => r.id)).size, done.length, 'one record per flow');
    assert.deepEqual(done.map((r) => r.authMethodType).sort(), ['email_otp', 'fido2', 'fido2', 'fido2']);
  });
});
