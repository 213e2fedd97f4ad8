// Support for standard-rp.e2e.test.ts: the person's part in Chromium (sign-in by email code, the phone step,
// consent) and the silent (prompt=none) requests followed hop by hop with the browser's cookies.
import assert from 'node:assert/strict';
import { type Browser, type BrowserContext, desktopContext } from '@sesame/testing/browser';
import type { recorder } from './ciba-support';
import { catchCallbacks, mailedCode } from './hosted-signin-support';

type SmsProvider = Awaited<ReturnType<typeof recorder>>;

/** A browser of one person: a desktop context whose RP callbacks are caught, and a page in it. */
export async function personBrowser(browser: Browser, contexts: BrowserContext[]) {
  const context = await desktopContext(browser);
  contexts.push(context);
  const callbacks = await catchCallbacks(context);
  return { context, callbacks, page: await context.newPage() };
}
export type Person = Awaited<ReturnType<typeof personBrowser>>;

/** The code of the next SMS the stand-in provider receives after `before` messages, from its form Body. */
async function smsCode(sms: SmsProvider, before: number): Promise<string> {
  const [text] = (await sms.count(before + 1)).slice(before);
  return /\b(\d{6})\b/.exec(new URLSearchParams(text?.body ?? '').get('Body') ?? '')?.[1] ?? '';
}

/**
 * The person's part from the identify page on: email, the mailed code, then the phone step when `phone` is
 * given (the code the SMS provider received), then consent when it is shown; resolves with the RP callback.
 */
export async function signIn(
  { page, callbacks }: Person,
  email: string,
  phone?: { number: string; sms: SmsProvider },
): Promise<string> {
  await page.getByLabel('Email address').fill(email);
  const sentAfter = new Date();
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('Verification code').fill(await mailedCode(email, sentAfter));
  const callback = callbacks.next();
  await page.getByRole('button', { name: 'Verify' }).click();
  if (phone) {
    const before = phone.sms.seen.length;
    await page.getByLabel('Mobile number').fill(phone.number);
    await page.getByRole('button', { name: 'Send code' }).click();
    await page.getByLabel('SMS code').fill(await smsCode(phone.sms, before));
    await page.getByRole('button', { name: 'Verify' }).click();
  }
  const approve = page.getByRole('button', { name: 'Approve' });
  const first = await Promise.race([
    callback.then((url) => ({ url })),
    approve.waitFor({ timeout: 30_000 }).then(
      () => null,
      () => null,
    ),
  ]);
  if (first) return first.url;
  await approve.click();
  return callback;
}

/**
 * Opens an authorization URL expecting no page (prompt=none): every answer is a redirect, followed hop by hop
 * with the context's cookies (Chromium does not hand a goto's redirect chain to the callback route) until
 * one leads to the RP's `redirectUri`, which is returned.
 */
export async function silently({ context }: Person, url: string, redirectUri: string): Promise<string> {
  let next = url;
  for (let hop = 0; hop < 5; hop++) {
    const res = await context.request.get(next, { maxRedirects: 0 });
    const location = res.headers().location;
    assert.ok(
      res.status() >= 300 && res.status() < 400 && location,
      `a redirect, not a page: ${res.status()}`,
    );
    next = new URL(location, next).href;
    if (next.startsWith(redirectUri)) return next;
  }
  throw new Error(`no redirect to the RP after 5 hops: ${next}`);
}

/**
 * Opens an RP-initiated logout URL in the person's page and resolves with the URL of the navigation Chromium
 * made to `postLogoutRedirectUri` as the logout's redirect. Playwright's route does not catch a redirect that
 * answers a top-level GET, so that navigation may go to the network, where nothing need answer: the request
 * itself is what is observed, and it must have been redirected from `logoutEndpoint`.
 */
export async function followLogout(
  { page }: Person,
  url: string,
  logoutEndpoint: string,
  postLogoutRedirectUri: string,
): Promise<string> {
  const arrived = page.waitForRequest(
    (r) => r.isNavigationRequest() && r.url().startsWith(postLogoutRedirectUri),
    { timeout: 30_000 },
  );
  await page.goto(url).catch(() => undefined); // the landing page may not load: the request is the answer
  const request = await arrived;
  assert.ok(
    request.redirectedFrom()?.url().startsWith(logoutEndpoint),
    `redirected from the logout endpoint, not ${request.redirectedFrom()?.url()}`,
  );
  return request.url();
}
