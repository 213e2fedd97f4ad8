import assert from 'node:assert/strict';
import type { SoftwareAuthenticator } from '../passkeys/software-authenticator';
import { createPasskey } from './create-passkey';
import { TestBrowser, authorizePath, type startAuth } from './hosted-test-client';

type Auth = Awaited<ReturnType<typeof startAuth>>;

export const phoneAgent =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';

/** A browser on a phone (its own cookies, session and device). */
export function phoneBrowser(auth: Auth): TestBrowser {
  const phone = auth.browser();
  phone.headers['user-agent'] = phoneAgent;
  return phone;
}

/** The one-time link the QR page shows as text (`/m/<token>`). */
export const mobileLinkOf = (html: string) =>
  /href="(\/m\/[\w-]{43})" data-mobile-link/.exec(html)?.[1] ?? '';

/** The number a waiting page shows for the other device to pick (number matching). */
export const matchCodeOf = (html: string) => /data-match-code>(\d{2})</.exec(html)?.[1] ?? '';

/** The number each QR link's desktop showed (desktopAtQr), so that phoneOpens can pick it as a person would. */
const shownWith = new Map<string, string>();

/** A desktop at the QR page after "Use my phone": its browser, flow path and the link the page shows. */
export async function desktopAtQr(auth: Auth, extra: Record<string, string> = {}) {
  const desktop = auth.browser();
  const first = await desktop.request(authorizePath({ scope: 'openid', prompt: 'login', ...extra }));
  const csrf = TestBrowser.csrf(first.body);
  const flow = TestBrowser.formAction(first.body).replace(/\/email$/, '');
  const chose = await desktop.request(`${flow}/mobile`, { form: { csrf } });
  assert.equal(chose.location, flow);
  const page = await desktop.request(flow);
  assert.equal(page.status, 200);
  const link = mobileLinkOf(page.body);
  assert.ok(link, 'the QR page shows the link');
  const code = matchCodeOf(page.body);
  assert.ok(code, 'the QR page shows the number to pick on the phone');
  shownWith.set(link, code);
  return { desktop, csrf, flow, link, page, code };
}

/**
 * The phone opens the link: its own flow's path (after the 303). When the link came from desktopAtQr, the phone
 * also picks the number that desktop shows, as the person does on the phone's first page.
 */
export async function phoneOpens(phone: TestBrowser, link: string): Promise<string> {
  const opened = await phone.request(link);
  assert.equal(opened.status, 303, `opening ${link}: ${opened.status}`);
  const code = shownWith.get(link);
  if (code) await phonePicks(phone, opened.location, code);
  return opened.location;
}

/** On the phone's number-match page: picks `choice`; the answer (a 303 back to the flow when right). */
export async function phonePicks(phone: TestBrowser, phoneFlow: string, choice: string) {
  const page = await phone.request(phoneFlow);
  assert.equal(page.status, 200);
  const csrf = TestBrowser.csrf(page.body);
  return phone.request(`${phoneFlow}/mobile/match`, { form: { csrf, choice } });
}

/** The phone signs in by email code (on a browser that can hold a passkey); ends at the phone flow's /continue. */
export async function phoneByCode(auth: Auth, phone: TestBrowser, phoneFlow: string, email: string) {
  const page = await phone.request(phoneFlow);
  const csrf = TestBrowser.csrf(page.body);
  await phone.request(`${phoneFlow}/email`, { form: { csrf, email, passkeyCapable: '1' } });
  const verified = await phone.request(`${phoneFlow}/code`, { form: { csrf, code: auth.codeFor(email) } });
  assert.equal(verified.location, `${phoneFlow}/continue`);
  return csrf;
}

/** On the phone's passkey offer: creates a passkey with a software authenticator. */
export async function phoneCreatesPasskey(phone: TestBrowser, phoneFlow: string, csrf: string) {
  const { authenticator, created } = await createPasskey(phone, phoneFlow, csrf);
  assert.equal(created.status, 200, created.body);
  return authenticator;
}

/** The phone signs in with its passkey (discoverable); ends at the phone flow's /continue. */
export async function phoneByPasskey(
  phone: TestBrowser,
  phoneFlow: string,
  authenticator: SoftwareAuthenticator,
) {
  const page = await phone.request(phoneFlow);
  const csrf = TestBrowser.csrf(page.body);
  const options = await phone.request(`${phoneFlow}/passkey/sign-in-options`, { json: { csrf } });
  const response = authenticator.get(JSON.parse(options.body), { origin: 'http://localhost' });
  const answer = await phone.request(`${phoneFlow}/passkey/sign-in`, { json: { csrf, response } });
  assert.deepEqual(JSON.parse(answer.body), { location: `${phoneFlow}/continue` });
  return csrf;
}

/**
 * Asserts where a decline on the phone leads: the phone's page says Request declined, the desktop's wait is over
 * (`{wait}/status` says ready) and its next step (`{wait}/next`) goes to the RP with access_denied and `state`.
 */
export async function assertDeclinedOnPhone(
  phonePage: { body: string },
  desktop: TestBrowser,
  wait: string,
  state: string,
): Promise<void> {
  assert.match(phonePage.body, /<h1>Request declined<\/h1>/);
  assert.equal(JSON.parse((await desktop.request(`${wait}/status`)).body).state, 'ready');
  const end = new URL((await desktop.request(`${wait}/next`)).location);
  assert.deepEqual([end.searchParams.get('error'), end.searchParams.get('state')], ['access_denied', state]);
}
