import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it, jest } from '@jest/globals';
import { type UserStore, createUserStore } from '@sesame/auth-service';
import { createKeyValueStore } from '@sesame/kv';
import { type Connection, connectMongo } from '@sesame/mongo';
import { eventually } from '@sesame/testing';
import {
  type Browser,
  type BrowserContext,
  type Page,
  checkPage,
  desktopContext,
  launchBrowser,
  phoneContext,
} from '@sesame/testing/browser';
import { CompactEncrypt, type JWK, generateKeyPair, importJWK } from 'jose';
import * as oidc from 'openid-client';
import {
  type ActivityLogRecord,
  actionsOf,
  authorizationRequest,
  catchCallbacks,
  demoActivityLogs,
  formOf,
  freshEmail,
  mailedCode,
  mailedLink,
  redeemCallback,
  rpConfig,
} from './hosted-signin-support';
import { startRealPlatform } from './token-fixtures';

/**
 * Hosted sign-in in Debian's chromium against the six services on the real Redis, Kafka, Mongo-wire and SMTP
 * servers: openid-client v6 is the RP (PKCE, state, nonce, ID token verified against /jwks), the browser runs
 * the hosted pages by their accessible names, and every page passes checkPage (axe, 100 KB, screenshot).
 */
// Each test and hook of this file may take this long (starting processes, browser runs, mail round trips).
jest.setTimeout(180_000);

/** The flow id of a page at /flow/<id> (or a step of it, /flow/<id>/code after a posted code). */
const flowIdOf = (page: Page) => {
  const id = /^\/flow\/([\w-]+)(\/[\w-]+)?$/.exec(new URL(page.url()).pathname)?.[1];
  assert.ok(id, `a flow page: ${page.url()}`);
  return id;
};

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const pageBytes: Record<string, number> = {};

describe('hosted sign-in in a real browser', () => {
  let env: Awaited<ReturnType<typeof startRealPlatform>>;
  let browser: Browser;
  let config: oidc.Configuration;
  let logs: ReturnType<typeof demoActivityLogs>;
  let conn: Connection;
  let userStore: UserStore;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    const since = Date.now();
    // Every browser here is 127.0.0.1, and the per-IP mail throttle lives in the shared Redis across runs:
    // lift it so that repeated runs within its window still get their mail (the throttle has unit tests).
    env = await startRealPlatform('hosted-signin', { smtp: true, env: { SESAME_MAILS_PER_IP: '100000' } });
    browser = await launchBrowser();
    config = await rpConfig(env.platform.url, env.demo.clientId, env.demo.clientSecret);
    logs = demoActivityLogs(env, since);
    // auth's user store, read directly: bad input must never leave a user behind.
    conn = await connectMongo(env.mongoUrl, { appName: 'e2e-hosted-signin' });
    // Reads and plain saves only: no membership update, so the lock store (Redis in the service) is never used.
    userStore = createUserStore(conn, createKeyValueStore({ owner: 'auth' }));
  });
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await conn?.close();
    await env?.stop();
    console.log(`hosted sign-in page bytes: ${JSON.stringify(pageBytes)}`);
  });

  const newDesktop = async (opts?: Parameters<typeof desktopContext>[1]) => {
    const c = await desktopContext(browser, opts);
    contexts.push(c);
    return c;
  };
  const check = async (page: Page, name: string) => {
    const result = await checkPage(page, `hosted-signin-${name}`);
    pageBytes[name] = result.bytes;
    return result;
  };

  /**
   * Identify with `email`, then type the mailed code: ends on whatever page follows the code. Returns the
   * flow id (the code page is /flow/<id>).
   */
  async function identifyAndEnterCode(page: Page, email: string, prefix: string): Promise<string> {
    await check(page, `${prefix}-identify`);
    const sentAfter = new Date();
    await page.getByLabel('Email address').fill(email);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByLabel('Verification code').waitFor();
    await check(page, `${prefix}-code`);
    const flowId = flowIdOf(page);
    await page.getByLabel('Verification code').fill(await mailedCode(email, sentAfter));
    await page.getByRole('button', { name: 'Verify' }).click();
    return flowId;
  }

  /** The users in auth's store: bad input must not change it. */
  const userCount = () => conn.collection('users').countDocuments();

  const redeem = (callbackUrl: string, req: Awaited<ReturnType<typeof authorizationRequest>>) =>
    redeemCallback(config, callbackUrl, req);

  /** The common facts of a record of this platform's demo app, started on the desktop (Chrome on Linux). */
  function assertDesktopRecord(record: ActivityLogRecord, flowType: 'authentication' | 'transaction') {
    assert.equal(record.applicationId, env.demo.appId);
    assert.equal(record.businessUnit, env.demo.tenantId);
    assert.equal(record.flowType, flowType);
    assert.equal(record.accessingDeviceInfo?.browserType, 'Chrome');
    assert.equal(record.accessingDeviceInfo?.osType, 'Linux');
    assert.match(record.accessingDevice ?? '', /^Linux .*, Chrome \d/);
    assert.match(record.accessingIp ?? '', /^(::ffff:)?127\.0\.0\.1$|^::1$/);
    const actions = actionsOf(record);
    assert.deepEqual(actions.slice(0, 2), ['auth_start_oidc', 'desktop_login_page']);
    for (const e of record.events) {
      assert.equal(e.payload.flowId, record.id);
      assert.match(String(e.payload.details.clientIp), /^(::ffff:)?127\.0\.0\.1$|^::1$/);
    }
  }

  /** A device block of svc_info: Chrome (desktopContext's Linux, phoneContext's Android). */
  const chromeDevice = (device: unknown, os: 'Linux' | 'Android') => {
    const d = device as Record<string, unknown>;
    assert.equal(d.browser_type, 'Chrome');
    assert.equal(d.os_type, os);
  };

  it('signs a new user in by email code with PKCE, and the RP verifies an ID token with the expected claims', async () => {
    const context = await newDesktop();
    const callbacks = await catchCallbacks(context);
    const page = await context.newPage();
    const email = freshEmail('new-user');
    const req = await authorizationRequest(config, env.demo.redirectUri);
    await page.goto(req.url.href);
    const flowId = await identifyAndEnterCode(page, email, 'new-user');
    // A new user shares the email scope with this app for the first time: consent.
    await page.getByRole('button', { name: 'Approve' }).waitFor();
    await check(page, 'new-user-consent');
    const callback = callbacks.next();
    await page.getByRole('button', { name: 'Approve' }).click();
    const callbackUrl = await callback;
    const params = new URL(callbackUrl).searchParams;
    assert.equal(params.get('state'), req.state);
    assert.equal(params.get('iss'), env.platform.url);
    assert.ok(params.get('code'));

    const claims = await redeem(callbackUrl, req);
    assert.match(claims.sub, uuid);
    assert.equal(claims.iss, env.platform.url);
    assert.equal(claims.aud, env.demo.clientId);
    assert.equal(claims.nonce, req.nonce);
    assert.deepEqual(claims.acr, 'ts.svc.iac.email');
    assert.deepEqual(claims.amr, ['ts.svc.email_otp']);
    assert.equal(claims.email, email);
    assert.equal(claims.email_verified, true);
    assert.equal(claims.email_last_update, 'Last 24 hours');
    assert.ok(Math.abs((claims.auth_time ?? 0) - Date.now() / 1000) < 120);
    const svcInfo = claims.svc_info as Record<string, unknown>;
    chromeDevice(svcInfo.originating_device, 'Linux');
    chromeDevice(svcInfo.authenticating_device, 'Linux');
    // A first login: it is also the first from this device, and there is no earlier one.
    assert.deepEqual(svcInfo, {
      originating_device: svcInfo.originating_device,
      authenticating_device: svcInfo.authenticating_device,
      capp_first_login: claims.auth_time,
      capp_first_login_from_authenticating_device: claims.auth_time,
    });

    // activity-logs: one record of this flow, a success by email code of the new user.
    const record = await logs.flow(flowId, ['auth_complete']);
    assertDesktopRecord(record, 'authentication');
    assert.equal(record.status, 'success');
    assert.equal(record.userId, claims.sub);
    assert.equal(record.authMethodType, 'email_otp');
    assert.equal(record.authenticatingDeviceInfo?.browserType, 'Chrome');
    assert.equal(record.authenticatingDeviceInfo?.osType, 'Linux');
    assert.equal(record.isNewAuthenticationDeviceForRP, true);
    assert.equal(record.errorCode, undefined);
    assert.equal(record.consentDecision, 'approve');
    // Two login pages: the first page, then the typed address going on the record (issue 38).
    assert.deepEqual(actionsOf(record), [
      'auth_start_oidc',
      'desktop_login_page',
      'desktop_login_page',
      'new_user_registered',
      'email_verification_success',
      'desktop_consent',
      'auth_complete',
    ]);
    // The user's records are this flow's only.
    assert.deepEqual(
      (await logs.query({ userId: claims.sub })).map((r) => r.id),
      [flowId],
    );
  });

  it('signs a returning user in by a magic link confirmed in a second browser context, and the first tab continues by itself', async () => {
    const email = freshEmail('returning');
    // First visit: registers the user (code) on the desktop.
    const desktop = await newDesktop();
    const callbacks = await catchCallbacks(desktop);
    const page = await desktop.newPage();
    const first = await authorizationRequest(config, env.demo.redirectUri, { scope: 'openid' });
    await page.goto(first.url.href);
    const firstCallback = callbacks.next();
    await identifyAndEnterCode(page, email, 'returning-first');
    const firstUrl = await firstCallback;
    await page.waitForURL(firstUrl);
    const firstClaims = await redeem(firstUrl, first);

    // Second visit: prompt=login asks again despite the live session; a magic link instead, confirmed on a
    // phone (another device, another browser context).
    const req = await authorizationRequest(config, env.demo.redirectUri, {
      scope: 'openid',
      prompt: 'login',
    });
    await page.goto(req.url.href);
    await check(page, 'returning-identify');
    const codeAfter = new Date();
    await page.getByLabel('Email address').fill(email);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByLabel('Verification code').waitFor();
    await check(page, 'returning-code');
    const flowId = flowIdOf(page);
    await mailedCode(email, codeAfter); // the code mail arrives first; the link mail follows it
    const linkAfter = new Date();
    await page.getByRole('button', { name: 'Email me a link instead' }).click();
    await page.getByRole('heading', { name: 'Check your email' }).waitFor();
    await check(page, 'returning-check-email');
    // The number the phone will ask for (number matching: the link is opened in another browser).
    const shown = (await page.locator('[data-match-code]').innerText()).trim();
    assert.match(shown, /^\d{2}$/);
    const link = await mailedLink(email, linkAfter);
    assert.ok(link.startsWith(`${env.platform.url}/link/`), link);

    const phone = await phoneContext(browser);
    contexts.push(phone);
    const phonePage = await phone.newPage();
    await phonePage.goto(link);
    await phonePage.getByRole('heading', { name: 'Confirm sign-in' }).waitFor();
    await phonePage.getByText('This sign-in will continue on another device').waitFor();
    await check(phonePage, 'returning-link-confirm');
    const callback = callbacks.next(60_000);
    await phonePage.getByRole('button', { name: shown, exact: true }).click();
    await phonePage.getByRole('heading', { name: "You're signed in" }).waitFor();
    await check(phonePage, 'returning-link-done');

    // Nobody touches the first tab: it polls and goes on to the RP by itself.
    const callbackUrl = await callback;
    await page.waitForURL(callbackUrl);
    const claims = await redeem(callbackUrl, req);
    assert.equal(claims.sub, firstClaims.sub);
    assert.equal(claims.nonce, req.nonce);
    assert.deepEqual(claims.amr, ['ts.svc.email_magic_link']);
    assert.equal(claims.acr, 'ts.svc.iac.email');
    const svcInfo = claims.svc_info as Record<string, Record<string, unknown>>;
    // Started on the desktop, confirmed on the phone.
    chromeDevice(svcInfo.originating_device, 'Linux');
    chromeDevice(svcInfo.authenticating_device, 'Android');
    // A returning user of this app: the first login is the first visit's; the phone is new to this app.
    const firstInfo = firstClaims.svc_info as Record<string, unknown>;
    assert.equal(svcInfo.capp_first_login, firstInfo.capp_first_login);
    assert.equal(typeof svcInfo.capp_last_login, 'number');
    assert.ok((svcInfo.capp_last_login as unknown as number) >= (firstInfo.capp_first_login as number));
    assert.equal(svcInfo.capp_first_login_from_authenticating_device, claims.auth_time);

    // activity-logs: a success by magic link, started on the desktop, authenticated on the phone.
    const record = await logs.flow(flowId, ['auth_complete']);
    assertDesktopRecord(record, 'authentication');
    assert.equal(record.status, 'success');
    assert.equal(record.userId, claims.sub);
    assert.equal(record.authMethodType, 'email_magic_link');
    assert.equal(record.authenticatingDeviceInfo?.browserType, 'Chrome');
    assert.equal(record.authenticatingDeviceInfo?.osType, 'Android');
    assert.equal(record.isNewAuthenticationDeviceForRP, true, 'the phone is new to this app');
    assert.deepEqual(actionsOf(record), [
      'auth_start_oidc',
      'desktop_login_page',
      'desktop_login_page',
      'email_verification_success',
      'auth_complete',
    ]);

    // Third visit, no prompt: single sign-on goes straight back to the RP with the magic link's auth_time.
    // Followed hop by hop with the context's cookies (Chromium does not hand a goto's redirect chain to the
    // callback route).
    const sso = await authorizationRequest(config, env.demo.redirectUri, { scope: 'openid' });
    const skipped = await desktop.request.get(sso.url.href, { maxRedirects: 0 });
    assert.equal(skipped.status(), 303, 'no sign-in page');
    const back = await desktop.request.get(new URL(skipped.headers().location!, sso.url).href, {
      maxRedirects: 0,
    });
    assert.equal(back.status(), 302);
    const ssoClaims = await redeem(back.headers().location!, sso);
    assert.deepEqual(
      [ssoClaims.sub, ssoClaims.auth_time, ssoClaims.amr],
      [claims.sub, claims.auth_time, ['ts.svc.email_magic_link']],
    );
  });

  const transaction = {
    display_data: { payee: 'Acme Books Ltd', payment_amount: '€42.50', payment_method: 'Visa •••• 4242' },
    additional_data: { order: 'A-1001' },
  };

  async function transactionToConsent(prefix: string) {
    const context = await newDesktop();
    const callbacks = await catchCallbacks(context);
    const page = await context.newPage();
    const req = await authorizationRequest(config, env.demo.redirectUri, {
      scope: 'openid',
      claims: JSON.stringify({ id_token: { svc_psd2_transaction: { value: transaction } } }),
    });
    await page.goto(req.url.href);
    const flowId = await identifyAndEnterCode(page, freshEmail(prefix), prefix);
    await page.getByRole('button', { name: 'Approve' }).waitFor();
    await check(page, `${prefix}-consent`);
    const panel = page.getByRole('region', { name: 'Payment to approve' });
    assert.match(await panel.innerText(), /Payee\s+Acme Books Ltd/);
    assert.match(await panel.innerText(), /Amount\s+€42\.50/);
    return { page, req, callbacks, flowId };
  }

  it('signs a transaction: the consent page shows payee and amount, Approve puts svc_psd2_transaction in the ID token, Deny redirects with access_denied and state', async () => {
    const approved = await transactionToConsent('psd2-approve');
    let callback = approved.callbacks.next();
    await approved.page.getByRole('button', { name: 'Approve' }).click();
    const claims = await redeem(await callback, approved.req);
    assert.deepEqual(claims.svc_psd2_transaction, transaction);

    const denied = await transactionToConsent('psd2-deny');
    callback = denied.callbacks.next();
    await denied.page.getByRole('button', { name: 'Deny' }).click();
    const params = new URL(await callback).searchParams;
    assert.equal(params.get('error'), 'access_denied');
    assert.equal(params.get('state'), denied.req.state);
    assert.equal(params.get('code'), null);

    // activity-logs: a transaction approved (success) and one denied (failure, consent rejected).
    const approvedRecord = await logs.flow(approved.flowId, ['auth_complete']);
    assertDesktopRecord(approvedRecord, 'transaction');
    assert.equal(approvedRecord.status, 'success');
    assert.equal(approvedRecord.userId, claims.sub);
    assert.equal(approvedRecord.authMethodType, 'email_otp');
    assert.equal(approvedRecord.consentDecision, 'approve');
    assert.equal(approvedRecord.desktopTransactionDecision, 'approve');
    assert.equal(approvedRecord.errorCode, undefined);
    assert.deepEqual(actionsOf(approvedRecord).slice(-3), [
      'desktop_transaction_page',
      'desktop_consent',
      'auth_complete',
    ]);
    const deniedRecord = await logs.flow(denied.flowId, ['desktop_consent']);
    assertDesktopRecord(deniedRecord, 'transaction');
    assert.equal(deniedRecord.status, 'failure');
    // spec 2.4's errorCode for a refusal on the consent screen (the RP gets access_denied).
    assert.equal(deniedRecord.errorCode, 'Consent_screen_rejected');
    assert.equal(deniedRecord.consentDecision, 'reject');
    assert.equal(deniedRecord.desktopTransactionDecision, 'reject');
    assert.ok(deniedRecord.userId, 'the email was proven before the refusal');
    assert.deepEqual(actionsOf(deniedRecord).slice(-2), ['desktop_transaction_page', 'desktop_consent']);
  });

  it('shows the identify page in German with ui_locales=de and html lang="de"', async () => {
    const context = await newDesktop();
    const page = await context.newPage();
    const req = await authorizationRequest(config, env.demo.redirectUri, { ui_locales: 'de' });
    await page.goto(req.url.href);
    await check(page, 'german-identify');
    assert.equal(await page.locator('html').getAttribute('lang'), 'de');
    assert.equal(await page.getByRole('heading', { level: 1 }).innerText(), 'Anmelden');
    await page.getByLabel('E-Mail-Adresse').waitFor();
    await page.getByRole('button', { name: 'Weiter' }).waitFor();

    // Nobody goes on from here: activity-logs shows the abandoned flow as incomplete, with no user.
    const flowId = /^\/flow\/([\w-]+)\/email$/.exec(new URL((await formOf(page)).action).pathname)?.[1];
    assert.ok(flowId, 'the identify form posts to its flow');
    const record = await logs.flow(flowId, ['desktop_login_page']);
    assertDesktopRecord(record, 'authentication');
    assert.equal(record.status, 'incomplete');
    assert.equal(record.userId, undefined);
    assert.equal(record.authMethodType, undefined);
    assert.deepEqual(actionsOf(record), ['auth_start_oidc', 'desktop_login_page']);
  });

  it('RP-initiated logout: the person confirms Sign out, lands on the post-logout redirect with state, and the next /authorize shows the sign-in page', async () => {
    const signedOut = `${new URL(env.demo.redirectUri).origin}/signed-out`;
    const patched = await fetch(
      `${env.platform.url}/api/v1/admin/tenants/${env.demo.tenantId}/applications/${env.demo.appId}`,
      {
        method: 'PATCH',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${env.platform.adminKey}` },
        body: JSON.stringify({ postLogoutRedirectUris: [signedOut] }),
      },
    );
    assert.equal(patched.status, 200);
    const context = await newDesktop();
    const callbacks = await catchCallbacks(context);
    const page = await context.newPage();
    const req = await authorizationRequest(config, env.demo.redirectUri);
    await page.goto(req.url.href);
    await identifyAndEnterCode(page, freshEmail('logout'), 'logout');
    await page.getByRole('button', { name: 'Approve' }).waitFor();
    const callback = callbacks.next();
    await page.getByRole('button', { name: 'Approve' }).click();
    await redeem(await callback, req);
    // The callback page loads before the next navigation (else page.goto below is "interrupted by another
    // navigation" to the callback: seen in CI).
    await page.waitForURL((u) => u.pathname === new URL(env.demo.redirectUri).pathname);

    // No id_token_hint: Sesame asks before it ends the session.
    const logout = new URL('/logout', env.platform.url);
    logout.search = new URLSearchParams({
      client_id: env.demo.clientId,
      post_logout_redirect_uri: signedOut,
      state: 'bye-1',
    }).toString();
    await page.goto(logout.href);
    await page.getByRole('heading', { name: 'Sign out?' }).waitFor();
    await check(page, 'logout-confirm');
    const landed = callbacks.next();
    await page.getByRole('button', { name: 'Sign out' }).click();
    assert.equal(await landed, `${signedOut}?state=bye-1`);
    // The post-logout page loads before the next navigation (else that navigation interrupts this one).
    await page.getByRole('heading', { name: 'Back at the app' }).waitFor();

    const again = await authorizationRequest(config, env.demo.redirectUri);
    await page.goto(again.url.href);
    // The identify page again: the session is gone, so there is no single sign-on redirect to the RP.
    await page.getByLabel('Email address').waitFor();
  });

  describe('bad input', () => {
    it('answers an unknown client_id with an HTML error page, status 400, and no redirect', async () => {
      const context = await newDesktop();
      const callbacks = await catchCallbacks(context);
      const page = await context.newPage();
      const url = new URL('/authorize', env.platform.url);
      for (const [k, v] of Object.entries({
        client_id: 'no-such-client',
        redirect_uri: env.demo.redirectUri,
        response_type: 'code',
        scope: 'openid',
        state: 'st',
      }))
        url.searchParams.set(k, v);
      const response = await page.goto(url.href);
      assert.equal(response?.status(), 400);
      assert.match(response?.headers()['content-type'] ?? '', /^text\/html/);
      assert.equal(new URL(page.url()).origin, env.platform.url);
      await page.getByRole('heading', { name: 'Unknown application' }).waitFor();
      await check(page, 'bad-unknown-client');
      assert.deepEqual(callbacks.seen, []);
    });

    const authorizeUrl = (params: Record<string, string>) => {
      const url = new URL('/authorize', env.platform.url);
      for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
      return url.href;
    };

    /**
     * GET /authorize with these parameters from a new desktop context's browser (its cookies and User-Agent),
     * not following redirects: the answer is never a 500 and leaves no new user behind. (A navigation would
     * do, but Playwright's route does not catch a redirect that answers a top-level GET, so the RP's callback
     * would go to the network.)
     */
    async function authorizeAnswer(params: Record<string, string>) {
      const context = await newDesktop();
      const usersBefore = await userCount();
      const response = await context.request.get(authorizeUrl(params), { maxRedirects: 0 });
      assert.ok(response.status() < 500, `status ${response.status()}`);
      assert.equal(await userCount(), usersBefore, 'no user is created');
      return response;
    }

    /** A 302 to the RP's redirect_uri with error, error_description, state and iss, and no code. */
    function assertErrorRedirect(
      response: Awaited<ReturnType<typeof authorizeAnswer>>,
      error: string,
      state: string,
      description: RegExp,
    ) {
      assert.equal(response.status(), 302);
      const location = new URL(response.headers().location ?? '');
      assert.equal(`${location.origin}${location.pathname}`, env.demo.redirectUri);
      const params = location.searchParams;
      assert.equal(params.get('error'), error);
      assert.match(params.get('error_description') ?? '', description);
      assert.equal(params.get('state'), state);
      assert.equal(params.get('iss'), env.platform.url);
      assert.equal(params.get('code'), null);
    }

    it('answers a registered client with a foreign redirect_uri with an HTML error page, status 400, and no redirect', async () => {
      const params = {
        client_id: env.demo.clientId,
        redirect_uri: 'http://localhost:3000/elsewhere',
        response_type: 'code',
        scope: 'openid',
        state: 'st-foreign',
      };
      const answer = await authorizeAnswer(params);
      assert.equal(answer.status(), 400);
      assert.equal(answer.headers().location, undefined, 'no redirect');
      // And in the browser: the error page, and it stays on the platform.
      const context = await newDesktop();
      const callbacks = await catchCallbacks(context);
      const page = await context.newPage();
      const response = await page.goto(authorizeUrl(params));
      assert.equal(response?.status(), 400);
      assert.match(response?.headers()['content-type'] ?? '', /^text\/html/);
      assert.equal(new URL(page.url()).origin, env.platform.url);
      await page.getByRole('heading', { name: 'Invalid return address' }).waitFor();
      await check(page, 'bad-foreign-redirect-uri');
      assert.deepEqual(callbacks.seen, [], 'the browser never went to the foreign address');
    });

    it('redirects a request object that does not decrypt (garbage, or encrypted to another key) with invalid_request_object, state and iss', async () => {
      const base = {
        client_id: env.demo.clientId,
        redirect_uri: env.demo.redirectUri,
        response_type: 'code',
        scope: 'openid',
      };
      const garbage = await authorizeAnswer({ ...base, state: 'st-garbage', request: 'not.a.jwe.at-all' });
      assertErrorRedirect(garbage, 'invalid_request_object', 'st-garbage', /./);

      // A well-formed JWE with the kid of /jwks's enc key, encrypted to a key of our own.
      const jwks = (await (await fetch(new URL('/jwks', env.platform.url))).json()) as { keys: JWK[] };
      const encKey = jwks.keys.find((k) => k.use === 'enc');
      assert.ok(encKey?.kid);
      const { publicKey } = await generateKeyPair('RSA-OAEP-256', { modulusLength: 2048 });
      const payload = { ...base, state: 'st-inner', nonce: 'n-1' };
      const wrongKey = await new CompactEncrypt(new TextEncoder().encode(JSON.stringify(payload)))
        .setProtectedHeader({ alg: 'RSA-OAEP-256', enc: 'A256GCM', kid: encKey.kid })
        .encrypt(publicKey);
      const wrong = await authorizeAnswer({ ...base, state: 'st-wrong-key', request: wrongKey });
      assertErrorRedirect(wrong, 'invalid_request_object', 'st-wrong-key', /./);
    });

    it('redirects invalid claims (a psd2 transaction missing display_data fields, an approval with 3 attributes) with invalid_request', async () => {
      const base = {
        client_id: env.demo.clientId,
        redirect_uri: env.demo.redirectUri,
        response_type: 'code',
        scope: 'openid',
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        code_challenge_method: 'S256',
      };
      const missing = await authorizeAnswer({
        ...base,
        state: 'st-psd2',
        claims: JSON.stringify({
          id_token: { svc_psd2_transaction: { value: { display_data: { payee: 'Acme Books Ltd' } } } },
        }),
      });
      assertErrorRedirect(missing, 'invalid_request', 'st-psd2', /svc_psd2_transaction/);

      const attribute = (n: number) => ({ label: `Label ${n}`, value: `Value ${n}` });
      const tooMany = await authorizeAnswer({
        ...base,
        state: 'st-approval',
        claims: JSON.stringify({
          id_token: {
            svc_approval: { value: { display_data: { attributes: [1, 2, 3].map(attribute) } } },
          },
        }),
      });
      assertErrorRedirect(tooMany, 'invalid_request', 'st-approval', /svc_approval/);
    });

    it('kills a code after 5 wrong tries: the right code then shows the too-many-attempts error', async () => {
      const context = await newDesktop();
      const page = await context.newPage();
      const email = freshEmail('wrong-codes');
      const req = await authorizationRequest(config, env.demo.redirectUri);
      await page.goto(req.url.href);
      await check(page, 'bad-wrong-code-identify');
      const sentAfter = new Date();
      await page.getByLabel('Email address').fill(email);
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByLabel('Verification code').waitFor();
      await check(page, 'bad-wrong-code-code');
      const code = await mailedCode(email, sentAfter);
      const wrong = code === '000000' ? '111111' : '000000';
      const postCode = () =>
        Promise.all([
          page.waitForResponse((r) => r.url().endsWith('/code') && r.request().method() === 'POST'),
          page.getByRole('button', { name: 'Verify' }).click(),
        ]).then(([response]) => response);
      for (let i = 1; i <= 4; i++) {
        await page.getByLabel('Verification code').fill(wrong);
        assert.equal((await postCode()).status(), 400);
        await page.getByText('That code is not right.', { exact: false }).waitFor();
        const left = 5 - i;
        await page.getByText(`${left} ${left === 1 ? 'attempt' : 'attempts'} left.`).waitFor();
      }
      // The fifth wrong try kills the code.
      // Issue 25: the page says why the code is dead (too many attempts, not "expired"), also for the right code.
      await page.getByLabel('Verification code').fill(wrong);
      assert.equal((await postCode()).status(), 400);
      await page.getByText('Too many attempts. Request a new code.').waitFor();
      await check(page, 'bad-wrong-code-fifth');
      await page.getByLabel('Verification code').fill(code);
      assert.equal((await postCode()).status(), 400);
      await page.getByText('Too many attempts. Request a new code.').waitFor();
      await check(page, 'bad-code-expired');
      assert.match(new URL(page.url()).pathname, /^\/flow\//);

      // No user for an address never proven, and activity-logs shows one failed flow.
      assert.equal(await userStore.users.findByEmail(email), undefined);
      const flowId = flowIdOf(page);
      const record = await logs.flow(
        flowId,
        Array.from({ length: 6 }, () => 'email_verification_failure'),
      );
      assertDesktopRecord(record, 'authentication');
      assert.equal(record.status, 'failure');
      assert.equal(record.errorCode, 'auth_failure');
      assert.equal(record.failureReason, 'email code expired or tried too often');
      assert.equal(record.authMethodType, 'email_otp');
      assert.equal(record.userId, undefined);
      assert.deepEqual(actionsOf(record), [
        'auth_start_oidc',
        'desktop_login_page',
        'desktop_login_page',
        ...Array.from({ length: 6 }, () => 'email_verification_failure'),
      ]);
    });

    it('shows the "link not valid" page for a used magic link opened again', async () => {
      const context = await newDesktop();
      const callbacks = await catchCallbacks(context);
      const page = await context.newPage();
      const email = freshEmail('reused-link');
      const req = await authorizationRequest(config, env.demo.redirectUri, { scope: 'openid' });
      await page.goto(req.url.href);
      await check(page, 'bad-link-identify');
      const codeAfter = new Date();
      await page.getByLabel('Email address').fill(email);
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByLabel('Verification code').waitFor();
      await check(page, 'bad-link-code');
      const flowId = flowIdOf(page);
      await mailedCode(email, codeAfter);
      const linkAfter = new Date();
      await page.getByRole('button', { name: 'Email me a link instead' }).click();
      await page.getByRole('heading', { name: 'Check your email' }).waitFor();
      await check(page, 'bad-link-check-email');
      const link = await mailedLink(email, linkAfter);
      // Confirmed in this same browser: it goes straight on to the RP.
      const linkTab = await context.newPage();
      await linkTab.goto(link);
      await check(linkTab, 'bad-link-confirm');
      const callback = callbacks.next();
      await linkTab.getByRole('button', { name: 'Confirm sign-in' }).click();
      await linkTab.waitForURL(await callback);
      const again = await linkTab.goto(link);
      assert.equal(again?.status(), 410);
      await linkTab.getByRole('heading', { name: 'Link not valid' }).waitFor();
      await check(linkTab, 'bad-link-used');
      // The used link is recorded on its (finished) flow, whose record stays a success.
      const record = await logs.flow(flowId, ['auth_complete', 'magic_link_expired']);
      assert.equal(record.status, 'success');
      assert.equal(record.authMethodType, 'email_magic_link');
      assert.deepEqual(actionsOf(record).slice(-2), ['auth_complete', 'magic_link_expired']);
    });

    it('shows the "link not valid" page for an expired magic link, records magic_link_expired, and creates no user', async () => {
      // A platform of its own whose links live 3 seconds (SESAME_MAGIC_LINK_TTL_S), not the default 15 minutes.
      const since = Date.now();
      const short = await startRealPlatform('hosted-signin-short-links', {
        smtp: true,
        env: { SESAME_MAILS_PER_IP: '100000', SESAME_MAGIC_LINK_TTL_S: '3' },
      });
      const shortConn = await connectMongo(short.mongoUrl, { appName: 'e2e-hosted-signin-short-links' });
      try {
        const shortConfig = await rpConfig(short.platform.url, short.demo.clientId, short.demo.clientSecret);
        const context = await newDesktop();
        const page = await context.newPage();
        const email = freshEmail('expired-link');
        const req = await authorizationRequest(shortConfig, short.demo.redirectUri, { scope: 'openid' });
        await page.goto(req.url.href);
        const codeAfter = new Date();
        await page.getByLabel('Email address').fill(email);
        await page.getByRole('button', { name: 'Continue' }).click();
        await page.getByLabel('Verification code').waitFor();
        const flowId = flowIdOf(page);
        await mailedCode(email, codeAfter);
        const linkAfter = new Date();
        await page.getByRole('button', { name: 'Email me a link instead' }).click();
        await page.getByRole('heading', { name: 'Check your email' }).waitFor();
        const link = await mailedLink(email, linkAfter);

        // Opened until it has expired: looking at a live link spends and records nothing.
        const linkTab = await context.newPage();
        const status = await eventually(
          async () => (await linkTab.goto(link))?.status(),
          (s) => s !== 200,
          30_000,
          500,
        );
        assert.equal(status, 410);
        await linkTab.getByRole('heading', { name: 'Link not valid' }).waitFor();
        await linkTab.getByText('This link has expired or was already used.').waitFor();
        await check(linkTab, 'bad-link-expired');
        assert.equal(
          await linkTab.getByRole('button', { name: 'Confirm sign-in' }).count(),
          0,
          'nothing to confirm',
        );

        // The email was never proven: no user.
        assert.equal(
          await createUserStore(shortConn, createKeyValueStore({ owner: 'auth' })).users.findByEmail(email),
          undefined,
        );
        // activity-logs: magic_link_expired once on the flow, which nobody finished.
        const shortLogs = demoActivityLogs(short, since);
        const record = await shortLogs.flow(flowId, ['magic_link_expired']);
        assert.equal(actionsOf(record).filter((a) => a === 'magic_link_expired').length, 1);
        assert.equal(record.status, 'incomplete');
        assert.equal(record.userId, undefined);
        assert.equal(record.flowType, 'authentication');
      } finally {
        await shortConn.close();
        await short.stop();
      }
    });

    it('refuses a form posted without its CSRF token with a 403 error page', async () => {
      const context = await newDesktop();
      const page = await context.newPage();
      const req = await authorizationRequest(config, env.demo.redirectUri);
      await page.goto(req.url.href);
      await check(page, 'bad-csrf-identify');
      const { action, csrf } = await formOf(page);
      assert.ok(csrf, 'the identify form carries a CSRF token');
      // A request with this browser's cookies but no token, as a forged cross-site form would send.
      const forged = await page.request.post(action, {
        form: { email: freshEmail('csrf') },
        maxRedirects: 0,
      });
      assert.equal(forged.status(), 403);
      assert.match(forged.headers()['content-type'] ?? '', /^text\/html/);
      // The same in the browser itself: the form without its token field, submitted.
      await page.locator('input[name="csrf"]').evaluate((el) => el.remove());
      await page.getByLabel('Email address').fill(freshEmail('csrf'));
      const [response] = await Promise.all([
        page.waitForResponse((r) => r.url() === action && r.request().method() === 'POST'),
        page.getByRole('button', { name: 'Continue' }).click(),
      ]);
      assert.equal(response.status(), 403);
      await page.getByRole('heading', { name: 'Page expired' }).waitFor();
      await check(page, 'bad-csrf');
    });

    it('answers another browser opening a flow URL with the 403 "started in another browser" page', async () => {
      const owner = await newDesktop();
      const page = await owner.newPage();
      const req = await authorizationRequest(config, env.demo.redirectUri);
      await page.goto(req.url.href);
      await check(page, 'bad-other-browser-identify');
      const email = freshEmail('other-browser');
      const sentAfter = new Date();
      await page.getByLabel('Email address').fill(email);
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByLabel('Verification code').waitFor();
      await check(page, 'bad-other-browser-code');
      await mailedCode(email, sentAfter);
      const flowUrl = page.url();
      assert.match(new URL(flowUrl).pathname, /^\/flow\/[\w-]+$/);

      const stranger = await newDesktop();
      const strangerPage = await stranger.newPage();
      const response = await strangerPage.goto(flowUrl);
      assert.equal(response?.status(), 403);
      await strangerPage.getByRole('heading', { name: 'Different browser' }).waitFor();
      await strangerPage
        .getByText('This sign-in was started in another browser.', { exact: false })
        .waitFor();
      await check(strangerPage, 'bad-other-browser');
    });
  });

  it('completes a sign-in whose parameters come in a request object encrypted to the enc key of /jwks', async () => {
    const jwks = (await (await fetch(new URL('/jwks', env.platform.url))).json()) as { keys: JWK[] };
    const encKey = jwks.keys.find((k) => k.use === 'enc');
    assert.ok(encKey, '/jwks publishes an enc key');
    const pkceCodeVerifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const requestObject = {
      client_id: env.demo.clientId,
      redirect_uri: env.demo.redirectUri,
      response_type: 'code',
      scope: 'openid email',
      state,
      nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(pkceCodeVerifier),
      code_challenge_method: 'S256',
    };
    const jwe = await new CompactEncrypt(new TextEncoder().encode(JSON.stringify(requestObject)))
      .setProtectedHeader({ alg: 'RSA-OAEP-256', enc: 'A256GCM', kid: encKey.kid })
      .encrypt(await importJWK(encKey, 'RSA-OAEP-256'));
    const url = new URL('/authorize', env.platform.url);
    url.searchParams.set('client_id', env.demo.clientId);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('request', jwe);

    const context = await newDesktop();
    const callbacks = await catchCallbacks(context);
    const page = await context.newPage();
    await page.goto(url.href);
    const email = freshEmail('request-object');
    await identifyAndEnterCode(page, email, 'request-object');
    await page.getByRole('button', { name: 'Approve' }).waitFor();
    await check(page, 'request-object-consent');
    const callback = callbacks.next();
    await page.getByRole('button', { name: 'Approve' }).click();
    const claims = await redeem(await callback, { url, pkceCodeVerifier, state, nonce });
    assert.equal(claims.nonce, nonce);
    assert.equal(claims.email, email);
  });
});
