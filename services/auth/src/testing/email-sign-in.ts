import assert from 'node:assert/strict';
import { TestBrowser, authorizePath, type startAuth } from './hosted-test-client';

type Auth = Awaited<ReturnType<typeof startAuth>>;
type Answer = Awaited<ReturnType<TestBrowser['request']>>;

/** Where the email step leaves a new browser: on the code page of its flow. */
export interface AtCodePage {
  browser: TestBrowser;
  /** The answer to the first /authorize. */
  first: Answer;
  /** The answer to the email form. */
  sent: Answer;
  csrf: string;
  /** The flow's base path (`…/email` without `/email`). */
  flow: string;
}

/** A new browser runs /authorize (with `extra` parameters) and submits `email` on the sign-in page. */
export async function emailStep(auth: Auth, email: string, extra: Record<string, string> = {}) {
  const browser = auth.browser();
  const first = await browser.request(authorizePath(extra));
  const csrf = TestBrowser.csrf(first.body);
  const emailAction = TestBrowser.formAction(first.body);
  const sent = await browser.request(emailAction, { form: { csrf, email } });
  const flow = emailAction.replace(/\/email$/, '');
  return { browser, first, sent, csrf, flow } satisfies AtCodePage;
}

/** The email step, then the mailed code: the browser is on the consent page. */
export async function toConsent(auth: Auth, email: string, extra: Record<string, string> = {}) {
  const page = await emailStep(auth, email, extra);
  await page.browser.request(`${page.flow}/code`, { form: { csrf: page.csrf, code: auth.codeFor(email) } });
  return page;
}

/**
 * Signs in by email code and approves the consent, asserting the redirect to the RP carries a code: the
 * browser then holds a live session. `toCodePage` replaces the email step (a test that checks its answers).
 */
export async function signIn(
  auth: Auth,
  email: string,
  extra: Record<string, string> = {},
  toCodePage: (auth: Auth, email: string, extra: Record<string, string>) => Promise<AtCodePage> = emailStep,
) {
  const { browser, first, csrf, flow } = await toCodePage(auth, email, extra);
  await browser.request(`${flow}/code`, { form: { csrf, code: auth.codeFor(email) } });
  const done = await browser.request(`${flow}/consent`, { form: { csrf, decision: 'approve' } });
  assert.match(done.location, /^https:\/\/rp\.example\/cb\?code=/);
  return { browser, first };
}
