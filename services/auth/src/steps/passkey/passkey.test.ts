import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import type { SoftwareAuthenticator } from '../../passkeys/software-authenticator';
import { createPasskey } from '../../testing/create-passkey';
import { TestBrowser, authorizePath, startAuth } from '../../testing/hosted-test-client';
import { startedForSuite } from '../../testing/suite';

type Auth = Awaited<ReturnType<typeof startAuth>>;
const origin = 'http://localhost';
const rp = (query: string) => `https://rp.example/cb?${query}`;

/** /authorize for `openid` only (no consent), the identify page; returns the browser, CSRF token and flow path. */
async function identify(auth: Auth, browser = auth.browser()) {
  const page = await browser.request(authorizePath({ scope: 'openid', prompt: 'login' }));
  assert.equal(page.status, 200);
  const csrf = TestBrowser.csrf(page.body);
  const flow = TestBrowser.formAction(page.body).replace(/\/email$/, '');
  return { browser, csrf, flow };
}

/** Signs `email` in by code on a browser that says it can hold a passkey: ends on the passkey offer. */
async function codeOnCapableBrowser(auth: Auth, email: string, browser = auth.browser()) {
  const { csrf, flow } = await identify(auth, browser);
  await browser.request(`${flow}/email`, { form: { csrf, email, passkeyCapable: '1' } });
  const verified = await browser.request(`${flow}/code`, { form: { csrf, code: auth.codeFor(email) } });
  assert.equal(verified.location, `${flow}/continue`);
  return { browser, csrf, flow };
}

describe('passkeys on the hosted pages (auth service, in-memory stores)', () => {
  const auth = startedForSuite(() => startAuth());

  /** A user with a passkey created after their first code; returns the authenticator and the browser. */
  async function registered(email: string) {
    const { browser, csrf, flow } = await codeOnCapableBrowser(auth, email);
    const offer = await browser.request(`${flow}/continue`);
    assert.match(offer.body, />Create a passkey</);
    assert.match(offer.body, />Not now</);
    const { authenticator, created } = await createPasskey(browser, flow, csrf);
    assert.deepEqual(JSON.parse(created.body), { location: `${flow}/continue` });
    const done = await browser.request(`${flow}/continue`);
    assert.match(done.location, /^https:\/\/rp\.example\/cb\?code=/);
    return { authenticator, browser };
  }

  /** One passkey sign-in attempt on the identify page: the JSON answer of the verification. */
  async function passkeySignIn(
    auth: Auth,
    authenticator: SoftwareAuthenticator,
    opts: { userVerified?: boolean } = {},
  ) {
    const { browser, csrf, flow } = await identify(auth);
    const options = await browser.request(`${flow}/passkey/sign-in-options`, { json: { csrf } });
    const response = authenticator.get(JSON.parse(options.body), { origin, ...opts });
    const answer = await browser.request(`${flow}/passkey/sign-in`, { json: { csrf, response } });
    return { browser, flow, answer };
  }

  it('offers a passkey after the code on a capable browser, stores it for the user and device, then finishes', async () => {
    const { authenticator } = await registered('create@example.com');
    const user = await auth.users.users.findByEmail('create@example.com');
    const stored = await auth.passkeys.get(authenticator.credentialId);
    assert.equal(stored?.userId, user?.userId);
    const devices = await auth.users.devices.listForUser(user!.userId);
    assert.deepEqual(
      devices.map((d) => d.deviceId),
      [stored?.deviceId],
    );
    assert.deepEqual(auth.issued.at(-1)?.claims?.amr, ['ts.svc.email_otp']);
  });

  it('offers nothing to a browser that did not say it can hold a passkey', async () => {
    const browser = auth.browser();
    const { csrf, flow } = await identify(auth, browser);
    await browser.request(`${flow}/email`, { form: { csrf, email: 'plain@example.com' } });
    await browser.request(`${flow}/code`, { form: { csrf, code: auth.codeFor('plain@example.com') } });
    const done = await browser.request(`${flow}/continue`);
    assert.match(done.location, /^https:\/\/rp\.example\/cb\?code=/);
  });

  it('Not now finishes the sign-in without a passkey', async () => {
    const { browser, csrf, flow } = await codeOnCapableBrowser(auth, 'later@example.com');
    const later = await browser.request(`${flow}/passkey/not-now`, { form: { csrf } });
    assert.deepEqual([later.status, later.location], [303, `${flow}/continue`]);
    const done = await browser.request(`${flow}/continue`);
    assert.match(done.location, /^https:\/\/rp\.example\/cb\?code=/);
    const user = await auth.users.users.findByEmail('later@example.com');
    assert.deepEqual(await auth.passkeys.listForUser(user!.userId), []);
  });

  it('signs in with the passkey: the code carries amr ts.svc.mfca for the passkey’s user', async () => {
    const { authenticator } = await registered('signin@example.com');
    authenticator.counter = 1;
    const { browser, flow, answer } = await passkeySignIn(auth, authenticator);
    assert.deepEqual(JSON.parse(answer.body), { location: `${flow}/continue` });
    const done = await browser.request(`${flow}/continue`);
    assert.equal(done.location, rp(`code=code-${auth.issued.length}&state=st-1&iss=http%3A%2F%2Flocalhost`));
    const claims = auth.issued.at(-1)?.claims;
    assert.deepEqual(claims?.amr, ['ts.svc.mfca']);
    assert.equal(claims?.sub, (await auth.users.users.findByEmail('signin@example.com'))?.userId);
  });

  it('a passkey that signs without user verification ends the flow with xm_mfca_required', async () => {
    const { authenticator } = await registered('uv@example.com');
    authenticator.counter = 1;
    const issued = auth.issued.length;
    const { browser, flow, answer } = await passkeySignIn(auth, authenticator, { userVerified: false });
    const { location } = JSON.parse(answer.body) as { location: string };
    const url = new URL(location);
    assert.equal(`${url.origin}${url.pathname}`, 'https://rp.example/cb');
    assert.equal(url.searchParams.get('error'), 'xm_mfca_required');
    assert.equal(url.searchParams.get('state'), 'st-1');
    assert.equal(url.searchParams.get('iss'), 'http://localhost');
    assert.equal(auth.issued.length, issued);
    assert.equal((await browser.request(flow)).status, 410); // the flow is over
  });

  it('a signature counter that goes backwards is refused and the passkey marked suspected', async () => {
    const { authenticator } = await registered('clone@example.com');
    authenticator.counter = 10;
    assert.equal((await passkeySignIn(auth, authenticator)).answer.status, 200);
    authenticator.counter = 7;
    const issued = auth.issued.length;
    const { answer } = await passkeySignIn(auth, authenticator);
    assert.equal(answer.status, 400);
    assert.deepEqual(JSON.parse(answer.body), { error: 'refused' });
    assert.equal((await auth.passkeys.get(authenticator.credentialId))?.status, 'suspected');
    assert.equal(auth.issued.length, issued);
  });

  it('offers a new passkey again on a device whose only passkey is suspected', async () => {
    const { authenticator, browser } = await registered('again@example.com');
    await auth.passkeys.markSuspected(authenticator.credentialId);
    const { flow } = await codeOnCapableBrowser(auth, 'again@example.com', browser);
    const offer = await browser.request(`${flow}/continue`);
    assert.equal(offer.status, 200);
    assert.match(offer.body, />Create a passkey</);
  });

  it('offers no passkey again on a device that has an active one', async () => {
    const { browser } = await registered('twice@example.com');
    const { flow } = await codeOnCapableBrowser(auth, 'twice@example.com', browser);
    const done = await browser.request(`${flow}/continue`);
    assert.match(done.location, /^https:\/\/rp\.example\/cb\?code=/);
  });

  it('refuses passkey calls without the CSRF token, a response to another flow’s challenge, and a second verification', async () => {
    const { authenticator } = await registered('csrf@example.com');
    const { browser, csrf, flow } = await identify(auth);
    const noToken = await browser.request(`${flow}/passkey/sign-in-options`, { json: {} });
    assert.equal(noToken.status, 403);
    const options = await browser.request(`${flow}/passkey/sign-in-options`, { json: { csrf } });
    authenticator.counter = 1;
    const response = authenticator.get(JSON.parse(options.body), { origin });
    const other = await identify(auth);
    const replay = await other.browser.request(`${other.flow}/passkey/sign-in`, {
      json: { csrf: other.csrf, response },
    });
    assert.deepEqual([replay.status, JSON.parse(replay.body)], [400, { error: 'expired' }]);
    const ok = await browser.request(`${flow}/passkey/sign-in`, { json: { csrf, response } });
    assert.equal(ok.status, 200);
    const again = await browser.request(`${flow}/passkey/sign-in`, { json: { csrf, response } });
    assert.equal(again.status, 409);
  });
});
