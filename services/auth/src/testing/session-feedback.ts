import assert from 'node:assert/strict';
import { MemoryEventBus } from '@sesame/events';
import type { grants } from '@sesame/proto';
import type { SoftwareAuthenticator } from '../passkeys/software-authenticator';
import { createPasskey } from './create-passkey';
import {
  INACTIVE_TOKEN,
  TestBrowser,
  authorizePath,
  flowEventsReader,
  startAuth,
} from './hosted-test-client';

const origin = 'http://localhost';

/**
 * The auth service (in-memory stores and bus) with a Grants double that keeps what token would: each issued
 * code can be "redeemed" into an access token whose introspection names the code's tenant, app, user and login.
 */
export async function startFeedbackAuth() {
  const bus = new MemoryEventBus();
  const tokens = new Map<string, grants.IntrospectAccessTokenResponse>();
  const auth = await startAuth({
    bus,
    peers: { introspectAccessToken: async (token) => tokens.get(token) ?? INACTIVE_TOKEN },
  });
  let n = 0;
  /** What token's code exchange gives the RP: an access token for the code `issued` (default: the latest). */
  const accessTokenFor = (
    issued = auth.issued.at(-1)!,
    over: Partial<grants.IntrospectAccessTokenResponse> = {},
  ) => {
    const token = `tok-${++n}`;
    tokens.set(token, {
      active: true,
      tenantId: issued.tenantId,
      clientId: issued.clientId,
      credentialsId: '',
      scope: issued.scope,
      expiresAt: 2_000_000_000,
      sub: issued.claims!.sub,
      kind: 'user',
      appId: issued.appId,
      login: issued.login,
      ...over,
    });
    return token;
  };
  /** The flow's events published so far, in order (one flow keeps to one partition). */
  const eventsOf = flowEventsReader(() => bus);
  const feedback = (token: string | undefined, body?: unknown, headers: Record<string, string> = {}) =>
    fetch(`${auth.base}/session-feedback`, {
      method: 'POST',
      headers: {
        ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });

  /**
   * Signs `email` in by email code (scope openid, prompt login: never single sign-on) in `browser`, which may say
   * it can hold a passkey (then the passkey offer is answered Not now). Returns the redirect the browser got.
   */
  async function emailSignIn(email: string, browser = auth.browser(), extra: Record<string, string> = {}) {
    const page = await browser.request(authorizePath({ scope: 'openid', prompt: 'login', ...extra }));
    assert.equal(page.status, 200);
    const csrf = TestBrowser.csrf(page.body);
    const flow = TestBrowser.formAction(page.body).replace(/\/email$/, '');
    await browser.request(`${flow}/email`, { form: { csrf, email } });
    const verified = await browser.request(`${flow}/code`, { form: { csrf, code: auth.codeFor(email) } });
    assert.equal(verified.location, `${flow}/continue`);
    return { browser, flow, done: await browser.request(`${flow}/continue`) };
  }

  /** A passkey created after an email code in a fresh capable browser (that sign-in completes). */
  async function withPasskey(email: string) {
    const browser = auth.browser();
    const page = await browser.request(authorizePath({ scope: 'openid', prompt: 'login' }));
    const csrf = TestBrowser.csrf(page.body);
    const flow = TestBrowser.formAction(page.body).replace(/\/email$/, '');
    await browser.request(`${flow}/email`, { form: { csrf, email, passkeyCapable: '1' } });
    await browser.request(`${flow}/code`, { form: { csrf, code: auth.codeFor(email) } });
    const { authenticator } = await createPasskey(browser, flow, csrf);
    const done = await browser.request(`${flow}/continue`);
    assert.match(done.location, /^https:\/\/rp\.example\/cb\?code=/);
    return { authenticator, browser };
  }

  /** A passkey sign-in in `browser`; returns the redirect after the verified assertion. */
  async function passkeySignIn(
    authenticator: SoftwareAuthenticator,
    browser = auth.browser(),
    extra: Record<string, string> = {},
  ) {
    const page = await browser.request(authorizePath({ scope: 'openid', prompt: 'login', ...extra }));
    const csrf = TestBrowser.csrf(page.body);
    const flow = TestBrowser.formAction(page.body).replace(/\/email$/, '');
    const options = await browser.request(`${flow}/passkey/sign-in-options`, { json: { csrf } });
    authenticator.counter += 1;
    const response = authenticator.get(JSON.parse(options.body), { origin });
    const answer = await browser.request(`${flow}/passkey/sign-in`, { json: { csrf, response } });
    const { location } = JSON.parse(answer.body) as { location: string };
    return { flow, done: await browser.request(location) };
  }

  return { ...auth, tokens, accessTokenFor, eventsOf, feedback, emailSignIn, withPasskey, passkeySignIn };
}

export type FeedbackAuth = Awaited<ReturnType<typeof startFeedbackAuth>>;
