import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it, jest } from '@jest/globals';
import { interactiveAuthorization } from '@sesame/platform';
import {
  type Browser,
  type BrowserContext,
  type Page,
  checkPage,
  desktopContext,
  launchBrowser,
  phoneContext,
  virtualAuthenticator,
} from '@sesame/testing/browser';
import * as oidc from 'openid-client';
import {
  actionsOf,
  authorizationRequest,
  catchCallbacks,
  demoActivityLogs,
  freshEmail,
  mailedCode,
  rpConfig,
  withoutPasskeyAutofill,
} from './hosted-signin-support';
import { startRealPlatform } from './real-platform';

/**
 * Interactive init (spec 4.9) end to end in Chromium on the real servers: a person signs in with a passkey
 * (DevTools virtual authenticator), the RP exchanges the code, signs its access token with the client secret
 * and asks for an enrollment URL; a second browser context, with its own authenticator, opens it and creates
 * a second passkey; the RP gets the redirect with its state, and the next ID token counts one device more.
 */
jest.setTimeout(180_000);

const webAuthnBundle = /\/assets\/passkeys\.[0-9a-f]{10}\.js/;
type Tokens = { accessToken: string; claims: oidc.IDToken };

describe('interactive init: enroll a second passkey on another device', () => {
  let env: Awaited<ReturnType<typeof startRealPlatform>>;
  let browser: Browser;
  let config: oidc.Configuration;
  let desk: { context: BrowserContext; page: Page; callbacks: Awaited<ReturnType<typeof catchCallbacks>> };
  let second: { context: BrowserContext; page: Page; callbacks: Awaited<ReturnType<typeof catchCallbacks>> };
  let secondAuthenticator: Awaited<ReturnType<typeof virtualAuthenticator>>;
  const email = freshEmail('enroll');
  const startedAt = Date.now();
  const scope = 'openid svc_network_info';

  const open = async () => {
    const context = await desktopContext(browser);
    const callbacks = await catchCallbacks(context);
    const page = await context.newPage();
    return { context, page, callbacks };
  };

  beforeAll(async () => {
    env = await startRealPlatform('interactive', { smtp: true, env: { SESAME_MAILS_PER_IP: '100000' } });
    browser = await launchBrowser();
    config = await rpConfig(env.platform.url, env.demo.clientId, env.demo.clientSecret);
    desk = await open();
    await virtualAuthenticator(desk.page);
    // The page's passkey autofill (conditional UI) would sign in by itself beside the button's ceremony, and
    // one of the two would then find its flow finished: only the button runs here.
    await withoutPasskeyAutofill(desk.context);
    second = await open();
    secondAuthenticator = await virtualAuthenticator(second.page);
  });
  afterAll(async () => {
    await desk?.context.close().catch(() => undefined);
    await second?.context.close().catch(() => undefined);
    await browser?.close();
    await env?.stop();
  });

  /** The RP's code exchange (PKCE, state, nonce): the access token and the verified ID token's claims. */
  async function exchange(callbackUrl: string, req: Awaited<ReturnType<typeof authorizationRequest>>) {
    await desk.page.waitForURL(callbackUrl);
    const tokens = await oidc.authorizationCodeGrant(config, new URL(callbackUrl), {
      pkceCodeVerifier: req.pkceCodeVerifier,
      expectedState: req.state,
      expectedNonce: req.nonce,
    });
    return { accessToken: tokens.access_token, claims: tokens.claims()! } satisfies Tokens;
  }

  const deviceCount = (claims: oidc.IDToken) =>
    (claims.svc_network_info as { device_count: number } | undefined)?.device_count;

  /** A passkey sign-in on the desktop context (the email typed, "Use a passkey"). */
  async function passkeySignIn(): Promise<Tokens> {
    const req = await authorizationRequest(config, env.demo.redirectUri, { scope, prompt: 'login' });
    await desk.page.goto(req.url.href);
    await desk.page.getByLabel('Email address').fill(email);
    const callback = desk.callbacks.next();
    await desk.page.getByRole('button', { name: 'Use a passkey' }).click();
    return exchange(await callback, req);
  }

  /** A header for the body it travels with (the signature covers the body: docs/interactive-init.md). */
  const signer = (accessToken: string, secret: string) => (body: string) =>
    interactiveAuthorization({ accessToken, body }, secret);
  const init = (authorization: string | ((body: string) => string), body: Record<string, unknown>) => {
    const text = JSON.stringify(body);
    return fetch(`${env.platform.url}/api/v1/interactive/init`, {
      method: 'POST',
      headers: {
        authorization: typeof authorization === 'function' ? authorization(text) : authorization,
        'content-type': 'application/json',
      },
      body: text,
    });
  };
  const enrollBody = { purpose: 'device_enrollment', state: 'enroll-42' };

  let first: Tokens;
  let signedIn: Tokens;

  it('signs a person up (email code, Create a passkey, Approve), then in with the passkey', async () => {
    const req = await authorizationRequest(config, env.demo.redirectUri, { scope, prompt: 'login' });
    await desk.page.goto(req.url.href);
    const sentAfter = new Date();
    await desk.page.getByLabel('Email address').fill(email);
    await desk.page.getByRole('button', { name: 'Continue' }).click();
    await desk.page.getByLabel('Verification code').fill(await mailedCode(email, sentAfter));
    await desk.page.getByRole('button', { name: 'Verify' }).click();
    const callback = desk.callbacks.next();
    await desk.page.getByRole('button', { name: 'Create a passkey' }).click();
    // svc_network_info is shared with the app for the first time: consent, unless the person gave it before.
    const approve = desk.page.getByRole('button', { name: 'Approve' });
    if (await Promise.race([callback.then(() => false), approve.waitFor().then(() => true)]))
      await approve.click();
    first = await exchange(await callback, req);
    signedIn = await passkeySignIn();
    assert.deepEqual(signedIn.claims.amr, ['ts.svc.mfca']);
    assert.equal(signedIn.claims.sub, first.claims.sub);
    assert.equal(deviceCount(signedIn.claims), 1);
  });

  it('refuses a wrong signature and a stale one (over the earlier access token) with 401', async () => {
    const body = { ...enrollBody, redirect_uri: env.demo.redirectUri };
    const wrong = await init(signer(signedIn.accessToken, 'not-the-client-secret'), body);
    assert.equal(wrong.status, 401);
    assert.match(wrong.headers.get('www-authenticate') ?? '', /^Sesame realm="sesame-interactive"/);
    const staleSignature = signer(
      first.accessToken,
      env.demo.clientSecret,
    )(JSON.stringify(body)).split('; ')[1];
    const stale = await init(`Sesame AccessToken ${signedIn.accessToken}; ${staleSignature}`, body);
    assert.equal(stale.status, 401);
    assert.equal(((await stale.json()) as { error: { code: string } }).error.code, 'invalid_signature');
  });

  let enrollUrl: string;
  let enrollFlowId: string;

  it('answers a correctly signed init with a URL that enrolls a passkey on the second device, back at the RP with state', async () => {
    const body = { ...enrollBody, redirect_uri: env.demo.redirectUri, data: { ignored: true } };
    const res = await init(signer(signedIn.accessToken, env.demo.clientSecret), body);
    assert.equal(res.status, 200);
    const answer = (await res.json()) as { status_code: string; data: { url: string } };
    assert.deepEqual(Object.keys(answer).sort(), ['data', 'status_code']);
    enrollUrl = answer.data.url;
    assert.match(enrollUrl, new RegExp(`^${env.platform.url}/enroll/[\\w-]{43}$`));

    await second.page.goto(enrollUrl);
    await second.page.getByRole('button', { name: 'Create a passkey' }).waitFor();
    assert.ok(await second.page.getByRole('button', { name: 'Cancel' }).isVisible());
    enrollFlowId = new URL(second.page.url()).pathname.split('/').at(-1)!;
    await checkPage(second.page, 'enroll-passkey', { excludeUrl: webAuthnBundle });
    const callback = second.callbacks.next();
    await second.page.getByRole('button', { name: 'Create a passkey' }).click();
    const landed = new URL(await callback);
    assert.equal(`${landed.origin}${landed.pathname}`, env.demo.redirectUri);
    assert.equal(landed.searchParams.get('state'), 'enroll-42');
    const credentials = await secondAuthenticator.credentials();
    assert.equal(credentials.length, 1);
    assert.equal(Buffer.from(credentials[0]!.userHandle ?? '', 'base64').toString(), signedIn.claims.sub);
  });

  it('the next ID token counts one device more (svc_network_info.device_count)', async () => {
    const next = await passkeySignIn();
    assert.equal(next.claims.sub, signedIn.claims.sub);
    assert.equal(deviceCount(next.claims), (deviceCount(signedIn.claims) ?? 0) + 1);
  });

  it('adds a phone by QR instead: the phone creates the passkey, the desktop lands at the RP with state', async () => {
    const body = { ...enrollBody, state: 'enroll-phone', redirect_uri: env.demo.redirectUri };
    const res = await init(signer(signedIn.accessToken, env.demo.clientSecret), body);
    assert.equal(res.status, 200);
    const { data } = (await res.json()) as { data: { url: string } };
    await desk.page.goto(data.url);
    await desk.page.getByRole('button', { name: 'Add a phone instead' }).click();
    await desk.page.getByRole('img', { name: 'QR code' }).waitFor();
    await checkPage(desk.page, 'enroll-phone-qr');
    const textLink = desk.page.getByRole('link', { name: /\/enroll\/m\// });
    const link = new URL((await textLink.getAttribute('href')) ?? '', desk.page.url()).href;

    const phone = await phoneContext(browser);
    try {
      const phonePage = await phone.newPage();
      const phoneAuthenticator = await virtualAuthenticator(phonePage);
      const callback = desk.callbacks.next();
      await phonePage.goto(link);
      await phonePage.getByRole('button', { name: 'Create a passkey' }).click();
      await phonePage.getByRole('heading', { name: 'You can go back to your computer' }).waitFor();
      const landed = new URL(await callback);
      assert.equal(`${landed.origin}${landed.pathname}`, env.demo.redirectUri);
      assert.equal(landed.searchParams.get('state'), 'enroll-phone');
      const credentials = await phoneAuthenticator.credentials();
      assert.equal(credentials.length, 1);
      assert.equal(Buffer.from(credentials[0]!.userHandle ?? '', 'base64').toString(), signedIn.claims.sub);
    } finally {
      await phone.close();
    }
  });

  it('the URL is spent: opening it again shows a clear page', async () => {
    const res = await second.page.goto(enrollUrl);
    assert.equal(res?.status(), 410);
    await second.page.getByRole('heading', { name: 'Link no longer valid' }).waitFor();
    await checkPage(second.page, 'enroll-link-invalid');
  });

  it('activity-logs shows the enrollment as one record: flowType enrollment, enroll_start_native … enroll_native_complete', async () => {
    const logs = demoActivityLogs(env, startedAt);
    const record = await logs.flow(enrollFlowId, ['enroll_start_native', 'enroll_native_complete']);
    assert.equal(record.flowType, 'enrollment');
    assert.equal(record.userId, signedIn.claims.sub);
    assert.equal(record.status, 'success');
    assert.deepEqual(actionsOf(record)[0], 'enroll_start_native');
    assert.deepEqual(actionsOf(record).at(-1), 'enroll_native_complete');
  });
});
