import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it, jest } from '@jest/globals';
import { eventually, mailbox } from '@sesame/testing';
import {
  type Browser,
  type BrowserContext,
  type Page,
  checkPage,
  desktopContext,
  launchBrowser,
  phoneContext,
} from '@sesame/testing/browser';
import {
  authorizationRequest,
  callbackOrigin,
  catchCallbacks,
  freshEmail,
  mailedCode,
  mailedLink,
  rpConfig,
} from './hosted-signin-support';
import { type RealPlatform, startRealPlatform } from './token-fixtures';

jest.setTimeout(300_000);

const ACCENT = '#0f766e';
const HOSTILE_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="120" height="32" onload="alert(1)"><script>alert(2)</script><rect width="120" height="32" rx="6" fill="${ACCENT}"/><a href="javascript:alert(3)"><text x="8" y="22" fill="#ffffff">ACME</text></a></svg>`;

/**
 * A tenant brands its pages and mails through the Console in Debian's chromium, on the real Redis, Kafka,
 * Mongo-wire and SMTP servers: the sign-in page, a code mail and an administrator invitation show the logo,
 * the colours, the sender name and the template's text (screenshots under the artifacts' screenshots), the
 * SVG's script is gone, a low-contrast pair is refused; pages and mails keep the budgets in light and dark.
 */
describe('branding through the Console, in a real browser', () => {
  let env: RealPlatform;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  beforeAll(async () => {
    env = await startRealPlatform('branding', {
      smtp: true,
    });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await env?.stop();
  });

  const context = async (colorScheme: 'light' | 'dark' = 'light') => {
    const c = await desktopContext(browser, { colorScheme });
    contexts.push(c);
    return c;
  };
  const phone = async () => {
    const c = await phoneContext(browser);
    contexts.push(c);
    return c;
  };

  /**
   * The page shows the brand saved in the first test: "… – ACME Energy" as its title, the logo, the accent in
   * force, and "Sesame" nowhere but the footer's "Secure sign-in by Sesame".
   */
  async function assertBrandShown(page: Page, what: string): Promise<void> {
    assert.match(await page.title(), / – ACME Energy$/, what);
    assert.equal(await page.locator('header img.brand-logo').getAttribute('alt'), 'ACME Energy', what);
    assert.ok(await page.locator('header img.brand-logo').isVisible(), `${what}: the logo is shown`);
    type Root = { getComputedStyle(e: unknown): { getPropertyValue(name: string): string } };
    const accent = await page
      .locator('html')
      .evaluate((e) =>
        (globalThis as unknown as Root).getComputedStyle(e).getPropertyValue('--accent').trim(),
      );
    assert.equal(accent, ACCENT, `${what}: the brand's accent`);
    assert.doesNotMatch(await page.locator('header').innerText(), /Sesame/, what);
    assert.doesNotMatch(await page.locator('main').innerText(), /Sesame/, what);
    assert.match(await page.locator('footer').innerText(), /Secure sign-in by Sesame/, what);
  }

  async function signInToConsole(page: Page, email: string): Promise<void> {
    await page.goto(`${env.platform.url}/console/`);
    const sentAfter = new Date();
    await page.getByLabel('Email address').fill(email);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByLabel('Verification code').fill(await mailedCode(email, sentAfter));
    await page.getByRole('button', { name: 'Verify' }).click();
    const nav = page.getByRole('navigation', { name: 'Console' });
    const approve = page.getByRole('button', { name: 'Approve' });
    await nav.or(approve).first().waitFor();
    if (await approve.isVisible()) await approve.click();
    await nav.waitFor();
  }

  /** The mail's HTML opened as a mail client shows it, weighed and checked like a page. */
  async function checkMail(html: string, name: string): Promise<void> {
    for (const scheme of ['light', 'dark'] as const) {
      const page = await (await context(scheme)).newPage();
      await page.setContent(html, { waitUntil: 'load' });
      await checkPage(page, `${name}-${scheme}`);
      await page.close();
    }
  }

  it('the Owner brands pages and mails; sign-in page, code mail and invitation show the brand', async () => {
    const admin = await (await context()).newPage();
    await signInToConsole(admin, env.demo.ownerEmail);
    await admin.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Branding' }).click();

    // A low-contrast pair is refused, with the measured ratio announced.
    await admin.getByLabel('Display name').fill('ACME Energy');
    await admin.getByLabel('Accent colour').fill('#ffff00');
    await admin.getByLabel('Background colour').fill('#ffffff');
    await admin.getByRole('button', { name: 'Save branding' }).click();
    assert.match(await admin.getByRole('alert').innerText(), /contrast ratio of 1\.07:1/);

    await admin.getByLabel('Accent colour').fill(ACCENT);
    await admin.getByLabel('Dark scheme accent').fill('#5eead4');
    await admin.getByLabel('Dark scheme background').fill('#042f2e');
    await admin.getByLabel('Sender name').fill('ACME Team');
    await admin
      .getByLabel('Logo')
      .setInputFiles({ name: 'logo.svg', mimeType: 'image/svg+xml', buffer: Buffer.from(HOSTILE_SVG) });
    await admin.getByRole('button', { name: 'Save branding' }).click();
    await admin.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();

    await admin.getByRole('combobox', { name: 'Mail' }).selectOption({ label: 'Sign-in code' });
    await admin.getByRole('button', { name: 'Show' }).click();
    // The template's page has loaded before it is edited (a click during that navigation is lost).
    await admin.waitForURL(/[?&]mail=sign-in-code/);
    await admin.getByLabel('Subject').fill('ACME Energy code: {{code}}');
    // Clicked right after the scroll that brings it into view: with the previews in out-of-process frames
    // (sandbox without allow-same-origin), chromium routed that click to a preview frame by its old position.
    await admin.getByRole('button', { name: 'Save mail template' }).click();
    await admin.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    await checkPage(admin, 'branding-console');

    // The sign-in page of the demo app, once the admin event reached auth.
    const config = await rpConfig(env.platform.url, env.demo.clientId, env.demo.clientSecret);
    const { url } = await authorizationRequest(config, `${callbackOrigin}/callback`);
    const light = await (await context('light')).newPage();
    await eventually(
      async () => {
        await light.goto(url.href);
        return light.locator('img.brand-logo').count();
      },
      (n) => n === 1,
      30_000,
      500,
    );
    assert.match(await light.title(), / – ACME Energy$/);
    // The tests are typed without the DOM library: the browser's getComputedStyle, typed as it is used.
    type Styles = { getComputedStyle(e: unknown): { backgroundColor: string } };
    const accent = await light
      .getByRole('button', { name: 'Continue' })
      .evaluate((b) => (globalThis as unknown as Styles).getComputedStyle(b).backgroundColor);
    assert.equal(accent, 'rgb(15, 118, 110)');
    assert.ok(await light.getByText('Secure sign-in by Sesame').isVisible());
    await checkPage(light, 'branding-signin-light');
    const dark = await (await context('dark')).newPage();
    await dark.goto(url.href);
    const darkAccent = await dark
      .getByRole('button', { name: 'Continue' })
      .evaluate((b) => (globalThis as unknown as Styles).getComputedStyle(b).backgroundColor);
    assert.equal(darkAccent, 'rgb(94, 234, 212)');
    await checkPage(dark, 'branding-signin-dark');

    // The logo is an image of its own, its script and javascript: link gone, under a sandboxing CSP.
    const logoUrl = await light.locator('img.brand-logo').getAttribute('src');
    const logo = await fetch(new URL(logoUrl!, env.platform.url));
    assert.equal(
      logo.headers.get('content-security-policy'),
      "default-src 'none'; style-src 'unsafe-inline'; sandbox",
    );
    const svg = await logo.text();
    assert.doesNotMatch(svg, /script|onload|javascript:/);
    assert.match(svg, /<rect/);

    // The code mail: the tenant's subject, the sender name, the logo and the accent button colour.
    const email = freshEmail('branding');
    const sentAfter = new Date();
    await light.getByLabel('Email address').fill(email);
    await light.getByRole('button', { name: 'Continue' }).click();
    const code = await mailbox().waitForMessageTo(email, { timeoutMs: 15_000, after: sentAfter });
    assert.match(code.subject, /^ACME Energy code: \d{6}$/);
    assert.match(code.from, /ACME Team/);
    assert.ok(code.html.includes(logoUrl!.replace(/^\//, '')), 'the logo from auth_url');
    await checkMail(code.html, 'branding-code-mail');

    // The administrator invitation: the tenant's name, sender name and logo too.
    await admin
      .getByRole('navigation', { name: 'Console' })
      .getByRole('link', { name: 'Administrators' })
      .click();
    const invitee = freshEmail('branding-admin');
    const invitedAfter = new Date();
    await admin.getByLabel('Email address').fill(invitee);
    await admin.getByRole('button', { name: 'Send invitation' }).click();
    const invitation = await mailbox().waitForMessageTo(invitee, { timeoutMs: 15_000, after: invitedAfter });
    assert.match(invitation.from, /ACME Team/);
    assert.match(invitation.html, /<img src="[^"]+\/logo\.[0-9a-f]{10}\.svg" alt="ACME Energy"/);
    await checkMail(invitation.html, 'branding-invitation-mail');
  });

  // After the first test: the tenant's brand is saved and has reached auth.
  it('the phone’s number match, "Link not valid" and a used magic link show the brand too (phone, light)', async () => {
    const config = await rpConfig(env.platform.url, env.demo.clientId, env.demo.clientSecret);
    const qrRequest = await authorizationRequest(config, `${callbackOrigin}/callback`, { prompt: 'login' });
    const desktop = await (await context()).newPage();
    await desktop.goto(qrRequest.url.href);
    await desktop.getByRole('button', { name: 'Use my phone' }).click();
    const textLink = desktop.getByRole('link', { name: /\/m\// });
    await textLink.waitFor();
    const link = new URL((await textLink.getAttribute('href')) ?? '', desktop.url()).href;

    const match = await (await phone()).newPage();
    await match.goto(link);
    await match.getByRole('heading', { name: 'Sign in with this phone?' }).waitFor();
    await assertBrandShown(match, 'the phone’s number match');
    await checkPage(match, 'branding-phone-number-match');

    const again = await (await phone()).newPage();
    await again.goto(link);
    await again.getByRole('heading', { name: 'Link not valid' }).waitFor();
    await assertBrandShown(again, 'a QR link opened twice');
    await checkPage(again, 'branding-link-not-valid');

    // A magic link, confirmed and then opened again: used, it is no longer valid, and says so in the brand.
    const email = freshEmail('branding-link');
    const linkRequest = await authorizationRequest(config, `${callbackOrigin}/callback`, { prompt: 'login' });
    const signInContext = await context();
    // The sign-in ends at the demo app's callback: answered here, no app needed.
    await catchCallbacks(signInContext);
    const signIn = await signInContext.newPage();
    await signIn.goto(linkRequest.url.href);
    const codeAfter = new Date();
    await signIn.getByLabel('Email address').fill(email);
    await signIn.getByRole('button', { name: 'Continue' }).click();
    await signIn.getByLabel('Verification code').waitFor();
    // The code's mail first, so that the link's is the newer one.
    await mailedCode(email, codeAfter);
    const sentAfter = new Date();
    await signIn.getByRole('button', { name: 'Email me a link instead' }).click();
    await signIn.getByRole('heading', { name: 'Check your email' }).waitFor();
    const magicLink = await mailedLink(email, sentAfter);
    const confirm = await signIn.context().newPage();
    await confirm.goto(magicLink);
    await confirm.getByRole('heading', { name: 'Confirm sign-in' }).waitFor();
    await assertBrandShown(confirm, 'the magic link’s confirmation');
    await confirm.getByRole('button', { name: 'Confirm sign-in' }).click();
    await confirm.waitForURL((u) => !u.pathname.startsWith('/link/'), { waitUntil: 'commit' });
    const used = await (await phone()).newPage();
    await used.goto(magicLink);
    await used.getByRole('heading', { name: 'Link not valid' }).waitFor();
    assert.match(await used.locator('main').innerText(), /This link has expired or was already used\./);
    await assertBrandShown(used, 'a used (expired) magic link');
    await checkPage(used, 'branding-expired-link');
  });
});
