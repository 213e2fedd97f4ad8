import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { directory } from '@sesame/proto';
import { signIn } from '../testing/email-sign-in';
import { TestBrowser, authorizePath, startAuth } from '../testing/hosted-test-client';
import { activationRequest } from '../testing/invitations';
import { desktopAtQr, matchCodeOf, phoneBrowser } from '../testing/qr';
import { type UsersClient, type UsersGrpcHarness, startUsersGrpc } from '../testing/users-grpc';

type Auth = Awaited<ReturnType<typeof startAuth>>;
type Answer = Awaited<ReturnType<TestBrowser['request']>>;

const ACCENT = '#0f766e';
const SVG = '<svg xmlns="http://www.w3.org/2000/svg"><rect width="1" height="1"></rect></svg>';
/** Tenant-1's brand, as mgmt's Directory.GetBranding answers it (the tenant's own and that of its apps). */
const branded = directory.GetBrandingResponse.fromPartial({
  branding: {
    displayName: 'ACME Energy',
    light: { accent: ACCENT, background: '#ffffff' },
    logoContentType: 'image/svg+xml',
    logoHash: 'x',
    logo: Buffer.from(SVG),
  },
});

const between = (html: string, open: RegExp, close: string) => {
  const start = html.search(open);
  return start < 0 ? '' : html.slice(start, html.indexOf(close, start) + close.length);
};

/**
 * The page carries tenant-1's brand: "… – ACME Energy" in the title, the logo (app `app`, '-' for the tenant's
 * own) in the header, the brand's stylesheet with its accent; "Sesame" only in the footer's "Secure sign-in by
 * Sesame".
 */
async function assertBranded(auth: Auth, page: Answer, what: string, app = 'app-1'): Promise<void> {
  const html = page.body;
  assert.match(/<title>([^<]*)<\/title>/.exec(html)?.[1] ?? '', / – ACME Energy$/, `${what}: title`);
  const header = between(html, /<header class="brand">/, '</header>');
  assert.match(
    header,
    new RegExp(
      `<img class="brand-logo" src="/branding/tenant-1/${app}/logo\\.[0-9a-f]{10}\\.svg" alt="ACME Energy">`,
    ),
    `${what}: the logo in the header`,
  );
  const css = /<link rel="stylesheet" href="([^"]+)">/.exec(html)?.[1] ?? '';
  assert.match(
    css,
    new RegExp(`^/branding/tenant-1/${app}/style\\.[0-9a-f]{10}\\.css$`),
    `${what}: stylesheet`,
  );
  assert.match(await (await fetch(new URL(css, auth.base))).text(), new RegExp(`--accent:${ACCENT}`));
  const footer = between(html, /<footer class="foot">/, '</footer>');
  assert.match(footer, /Secure sign-in by Sesame/);
  assert.doesNotMatch(html.replace(footer, ''), /Sesame/, `${what}: "Sesame" only in the footer`);
}

/** The neutral design of a page that names no tenant: Sesame in the header, Sesame's stylesheet. */
function assertNeutral(page: Answer, what: string): void {
  assert.equal(
    between(page.body, /<header class="brand">/, '</header>'),
    '<header class="brand">Sesame</header>',
  );
  assert.match(page.body, /<link rel="stylesheet" href="\/assets\/sesame\.[0-9a-f]{10}\.css">/, what);
}

/**
 * Issue 37: every hosted page of a branded tenant carries its brand — the phone's number match, "Link not
 * valid", a used or expired link, the sign-out pages, a registration — and {{app}} in mails is the app's name.
 */
describe('hosted pages of a branded tenant (auth service, in-memory stores)', () => {
  let auth: Auth;
  beforeAll(async () => {
    auth = await startAuth({
      peers: {
        getBranding: async (tenantId) =>
          tenantId === 'tenant-1' ? branded : directory.GetBrandingResponse.fromPartial({}),
      },
    });
  });
  afterAll(async () => {
    await auth.stop();
  });

  it('the QR’s phone: its number-match page, and "Link not valid" for a link opened twice', async () => {
    const { link, code } = await desktopAtQr(auth);
    const phone = phoneBrowser(auth);
    const opened = await phone.request(link);
    assert.equal(opened.status, 303);
    const match = await phone.request(opened.location);
    assert.match(match.body, /<h1>Sign in with this phone\?<\/h1>/);
    assert.ok(match.body.includes(`value="${code}"`));
    await assertBranded(auth, match, 'phone number match');

    const again = await phoneBrowser(auth).request(link);
    assert.equal(again.status, 410);
    assert.match(again.body, /<h1>Link not valid<\/h1>/);
    await assertBranded(auth, again, 'QR link opened twice');
  });

  it('a magic link: the number match in another browser, and once used and its sign-in over, "Link not valid"', async () => {
    const email = 'brand-link@example.com';
    const browser = auth.browser();
    const first = await browser.request(authorizePath({ scope: 'openid' }));
    const csrf = TestBrowser.csrf(first.body);
    const flow = TestBrowser.formAction(first.body).replace(/\/email$/, '');
    await browser.request(`${flow}/email`, { form: { csrf, email } });
    await browser.request(`${flow}/magic-link`, { form: { csrf } });
    const waiting = await browser.request(flow);
    const link = auth.linkFor(email);
    assert.ok(link && matchCodeOf(waiting.body));

    const elsewhere = await auth.browser().request(link);
    assert.match(elsewhere.body, /This sign-in will continue on another device/);
    await assertBranded(auth, elsewhere, 'magic link number match');
    const here = await browser.request(link);
    assert.match(here.body, /<h1>Confirm sign-in<\/h1>/);
    await assertBranded(auth, here, 'magic link confirm');

    // Confirmed in its own browser (scope openid: nothing to consent to): the sign-in is over, its flow gone.
    assert.equal((await browser.request(link, { form: { csrf } })).location, `${flow}/continue`);
    const done = await browser.request(`${flow}/continue`);
    assert.match(done.location, /^https:\/\/rp\.example\/cb\?code=/);
    assert.equal((await browser.request(flow)).status, 410, 'the flow is gone');

    const spent = await auth.browser().request(link);
    assert.equal(spent.status, 410);
    assert.match(spent.body, /<h1>Link not valid<\/h1>/);
    await assertBranded(auth, spent, 'a used magic link, its flow gone (the brand kept with the link)');
  });

  it('a link of no known tenant keeps the neutral design', async () => {
    const unknown = await auth.browser().request(`/link/${'a'.repeat(43)}`);
    assert.equal(unknown.status, 410);
    assertNeutral(unknown, 'unknown magic link');
    assertNeutral(await auth.browser().request(`/m/${'b'.repeat(43)}`), 'unknown QR link');
  });

  it('sign-out: the confirmation and "You are signed out" show the app’s brand, or the signed-in tenant’s', async () => {
    const { browser } = await signIn(auth, 'brand-logout@example.com');
    const confirm = await browser.request('/logout?client_id=client-1');
    assert.match(confirm.body, /Shop asks to sign you out on this browser\./);
    await assertBranded(auth, confirm, 'logout confirmation of an app');
    const out = await browser.request(TestBrowser.formAction(confirm.body), {
      form: { csrf: TestBrowser.csrf(confirm.body), decision: 'logout' },
    });
    assert.match(out.body, /<h1>You are signed out<\/h1>/);
    assert.match(out.body, /You signed out on this browser\./);
    await assertBranded(auth, out, 'signed-out page');

    const other = await signIn(auth, 'brand-logout-2@example.com');
    const bare = await other.browser.request('/logout');
    assert.match(bare.body, /Do you want to sign out on this browser\?/);
    await assertBranded(auth, bare, 'logout confirmation without an app', '-');
    const cancelled = await other.browser.request(TestBrowser.formAction(bare.body), {
      form: { csrf: TestBrowser.csrf(bare.body), decision: 'cancel' },
    });
    await assertBranded(auth, cancelled, 'logout cancelled', '-');

    const signedOut = await auth.browser().request('/logout');
    assert.match(signedOut.body, /<h1>You are signed out<\/h1>/);
    assertNeutral(signedOut, 'a bare /logout of a browser signed in nowhere');
  });

  it('{{app}} in the sign-in mails is the application’s name, as on its pages; the header is the brand', async () => {
    const email = 'brand-mail@example.com';
    const browser = auth.browser();
    const first = await browser.request(authorizePath({ scope: 'openid' }));
    assert.match(first.body, /Shop/, 'the page names the app');
    const csrf = TestBrowser.csrf(first.body);
    await browser.request(TestBrowser.formAction(first.body), { form: { csrf, email } });
    const mail = auth.outbox.list().find((m) => m.to === email);
    assert.match(mail?.subject ?? '', /^Your code for Shop is \d{6}$/);
    assert.match(mail?.text ?? '', /Your code to sign in to Shop is \d{6}\./);
    assert.match(mail?.html ?? '', /alt="ACME Energy"/, 'the header shows the brand');
  });

  it('a device-enrollment link, once used, is no longer valid in the tenant’s brand', async () => {
    await auth.users.users.create({ userId: 'user-brand', email: 'brand-enroll@example.com', createdAt: 1 });
    const request = {
      tenantId: 'tenant-1',
      appId: 'app-1',
      clientId: 'client-1',
      userId: 'user-brand',
      purpose: 'device_enrollment',
      redirectUri: 'https://rp.example/cb',
      state: 's-1',
    };
    const { url } = await auth.usersGrpc.createInteractiveFlow(request, undefined as never);
    const path = new URL(url).pathname;
    const opened = await auth.browser().request(path);
    assert.equal(opened.status, 303);
    const again = await auth.browser().request(path);
    assert.equal(again.status, 410);
    assert.match(again.body, /<h1>Link no longer valid<\/h1>/);
    await assertBranded(auth, again, 'a used enrollment link');
  });

  describe('a registration by an emailed link', () => {
    let grpc: UsersGrpcHarness;
    let users: UsersClient;
    beforeAll(async () => {
      grpc = await startUsersGrpc((server) => auth.module.grpc?.(server));
      users = await grpc.client();
    });
    afterAll(async () => {
      await grpc.stop();
    });

    it('its mail says the app’s name; its start page and its steps show the brand', async () => {
      const req = activationRequest({ userEmail: 'brand-reg@example.com', aliasValue: 'brand-reg' });
      await users.createActivationLink(req);
      const mail = auth.outbox.list().find((m) => m.to === 'brand-reg@example.com');
      assert.equal(mail?.subject, 'Create your account for Shop');
      const link = /\/register\/[\w-]{43}/.exec(mail?.text ?? '')?.[0] ?? '';
      const browser = auth.browser();
      const start = await browser.request(link);
      await assertBranded(auth, start, 'registration start');
      const taken = await browser.request(link, { form: { csrf: TestBrowser.csrf(start.body) } });
      const step = await browser.request(taken.location);
      assert.equal(step.status, 200);
      await assertBranded(auth, step, 'registration passkey step');

      // Taken: the link is no longer valid, and says so in the app's brand (the link remembers its owner).
      const used = await auth.browser().request(link);
      assert.equal(used.status, 410);
      await assertBranded(auth, used, 'a used registration link');
      assertNeutral(
        await auth.browser().request(`/register/${'c'.repeat(43)}`),
        'an unknown registration link',
      );
    });
  });
});
