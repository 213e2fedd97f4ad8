import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it, jest } from '@jest/globals';
import { mailbox } from '@sesame/testing';
import {
  type Browser,
  type BrowserContext,
  type Page,
  checkPage,
  desktopContext,
  launchBrowser,
  phoneContext,
} from '@sesame/testing/browser';
import { freshEmail, mailedCode } from './hosted-signin-support';
import { type RealPlatform, startRealPlatform } from './token-fixtures';

jest.setTimeout(600_000);

/** A console page: its name in screenshots and its path. */
type Visit = [name: string, path: string];

/**
 * The Console's application shell in Chromium against the real platform: every page an Owner can open, at
 * 1280×800 and on a 390×844 phone, with a full-page screenshot of each (.sesame/artifacts/screenshots/
 * console-shell-*.png, where checkPage keeps every page's): the navigation on one line at 1280 and 1024 px,
 * a Menu on the phone and no horizontal scroll there, axe-core with no serious or critical violation and the
 * 100 KB budget on every page. Then, for an Owner, an Administrator and a Support administrator (invited
 * through the console), every visible navigation link, every link and every form button of each page leads
 * to a page that is not a 403.
 */
describe('Console shell: layout at 1280×800 and 390×844, and no dead end per role', () => {
  let env: RealPlatform;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  const signedIn: Record<string, BrowserContext> = {};
  beforeAll(async () => {
    env = await startRealPlatform('console-shell', {
      smtp: true,
    });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await env?.stop();
  });

  const url = (path: string) => `${env.platform.url}${path}`;
  const nav = (page: Page) => page.getByRole('navigation', { name: 'Console' });

  async function newDesktop(): Promise<BrowserContext> {
    const c = await desktopContext(browser);
    contexts.push(c);
    return c;
  }

  /** Through Sesame's hosted pages with an emailed code; an invitation link ends on Accept invitation. */
  async function signInWithCode(page: Page, email: string): Promise<void> {
    const sentAfter = new Date();
    await page.getByLabel('Email address').fill(email);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByLabel('Verification code').fill(await mailedCode(email, sentAfter));
    await page.getByRole('button', { name: 'Verify' }).click();
    const approve = page.getByRole('button', { name: 'Approve' });
    const accept = page.getByRole('button', { name: 'Accept invitation' });
    await nav(page).or(approve).or(accept).first().waitFor();
    if (await approve.isVisible()) await approve.click();
    await nav(page).or(accept).first().waitFor();
    if (await accept.isVisible()) await accept.click();
    await nav(page).waitFor();
  }

  /** The Owner invites `role` through the Administrators page; the invitee accepts in a context of their own. */
  async function invite(owner: Page, role: 'Administrator' | 'Support'): Promise<BrowserContext> {
    const email = freshEmail(`shell-${role.toLowerCase()}`);
    await owner.goto(url('/console/administrators'));
    const after = new Date();
    await owner.getByLabel('Email address').fill(email);
    await owner.getByLabel('Role').selectOption({ label: role });
    await owner.getByRole('button', { name: 'Send invitation' }).click();
    await owner.getByRole('status').waitFor();
    const mail = await mailbox().waitForMessageTo(email, { timeoutMs: 15_000, after });
    const link = /(https?:\/\/\S+\/console\/invitations\/[\w-]+)/.exec(mail.text)?.[1];
    assert.ok(link, mail.text);
    const context = await newDesktop();
    const page = await context.newPage();
    await page.goto(link);
    await signInWithCode(page, email);
    await page.close();
    return context;
  }

  /** The tops of the visible navigation bar's links: one distinct value when they sit on one line. */
  const navLineTops = (page: Page) =>
    page.evaluate(
      `[...document.querySelectorAll('nav[aria-label="Console"] .nav-bar a')].map((a) => Math.round(a.getBoundingClientRect().top))`,
    ) as Promise<number[]>;

  async function assertNavOneLine(page: Page, where: string): Promise<void> {
    const tops = await navLineTops(page);
    assert.ok(tops.length >= 9, `${where}: the Owner's navigation has its links (${tops.length})`);
    assert.equal(new Set(tops).size, 1, `${where}: the navigation wraps (${tops.join(', ')})`);
  }

  /** Every page an Owner opens: the navigation's sections, then a new application form and one application. */
  async function ownerPages(page: Page): Promise<Visit[]> {
    await page.goto(url('/console/home'));
    const sections = await nav(page)
      .locator('.nav-bar a')
      .evaluateAll((as) =>
        as.map((a) => [a.textContent ?? '', new URL((a as unknown as { href: string }).href).pathname]),
      );
    await page.goto(url('/console/applications'));
    const app = await page
      .getByRole('main')
      .locator('a[href^="/console/applications/"]')
      .first()
      .getAttribute('href');
    assert.ok(app, 'the demo tenant has an application');
    return [
      ...(sections as Visit[]),
      ['New application', '/console/applications?new'],
      ['Application', app],
      ['New tenant', '/console/tenants/new'],
    ];
  }

  const slug = (name: string) => name.toLowerCase().replace(/[^a-z0-9]+/g, '-');

  it('every Owner page at 1280×800 and 390×844: one-line navigation, a Menu on the phone, no horizontal scroll, axe and budget', async () => {
    const desktop = await newDesktop();
    const page = await desktop.newPage();
    await page.goto(url('/console/'));
    await signInWithCode(page, env.demo.ownerEmail);
    assert.equal(new URL(page.url()).pathname, '/console/home', 'an Owner lands on Home');
    await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
    await page.getByRole('heading', { name: 'Get started' }).waitFor();
    for (const name of [
      'Create an application',
      'Connect your application',
      'Sign in once',
      'Invite a colleague',
      'Add your brand',
    ]) {
      assert.ok(await page.getByRole('main').getByRole('link', { name }).isVisible(), name);
    }
    assert.ok(
      await page.getByRole('button', { name: 'Copy Issuer' }).isVisible(),
      'the copy script shows Copy',
    );
    signedIn.owner = desktop;

    const visits = await ownerPages(page);
    for (const [name, path] of visits) {
      const res = await page.goto(url(path));
      assert.equal(res?.status(), 200, `${name} (${path})`);
      await page.getByRole('heading', { level: 1 }).waitFor();
      await checkPage(page, `console-shell-1280-${slug(name)}`);
      await assertNavOneLine(page, `${name} at 1280`);
    }
    await page.setViewportSize({ width: 1024, height: 768 });
    for (const [name, path] of visits) {
      await page.goto(url(path));
      await assertNavOneLine(page, `${name} at 1024`);
      assert.ok(await nav(page).getByRole('link', { name: 'Applications' }).isVisible());
      assert.equal(await page.getByRole('button', { name: 'Menu' }).isVisible(), false, 'no Menu at 1024');
    }
    await page.setViewportSize({ width: 1280, height: 800 });

    const phone = await phoneContext(browser, { viewport: { width: 390, height: 844 } });
    contexts.push(phone);
    await phone.addCookies(await desktop.cookies());
    const small = await phone.newPage();
    for (const [name, path] of visits) {
      const res = await small.goto(url(path));
      assert.equal(res?.status(), 200, `${name} (${path}) on the phone`);
      await small.getByRole('heading', { level: 1 }).waitFor();
      await checkPage(small, `console-shell-390-${slug(name)}`);
      const { scrollWidth, innerWidth } = (await small.evaluate(
        '({ scrollWidth: document.scrollingElement.scrollWidth, innerWidth: window.innerWidth })',
      )) as { scrollWidth: number; innerWidth: number };
      assert.ok(scrollWidth <= innerWidth, `${name}: ${scrollWidth} px wide in a ${innerWidth} px window`);
      const menu = small.getByRole('button', { name: 'Menu' });
      assert.ok(await menu.isVisible(), `${name}: a Menu on the phone`);
      assert.equal(await nav(small).getByRole('link', { name: 'Applications' }).isVisible(), false);
    }
    // The Menu opens the navigation, and its links work.
    await small.goto(url('/console/home'));
    await small.getByRole('button', { name: 'Menu' }).click();
    await checkPage(small, 'console-shell-390-menu-open');
    await nav(small).getByRole('link', { name: 'Administrators' }).click();
    await small.getByRole('heading', { name: 'Administrators', level: 1 }).waitFor();

    signedIn.administrator = await invite(page, 'Administrator');
    signedIn.support = await invite(page, 'Support');
  });

  /** Forms a check must not send: signing out, switching tenant, cancelling the invitations of this run. */
  const NOT_SENT = /\/console\/(signout|tenant)$|\/invitations\/[^/]+\/cancel$/;

  for (const role of ['owner', 'administrator', 'support'] as const) {
    it(`${role}: every visible navigation link, link and button of each page leads to a page that is not a 403`, async () => {
      const context = signedIn[role];
      assert.ok(context, 'signed in by the first test');
      const page = await context.newPage();
      const landing = await page.goto(url('/console/'));
      assert.equal(landing?.status(), 200);
      assert.equal(
        new URL(page.url()).pathname,
        role === 'support' ? '/console/users' : '/console/home',
        'the role’s first page',
      );
      const sections = (await nav(page)
        .locator('.nav-bar a')
        .evaluateAll((as) =>
          as.map((a) => new URL((a as unknown as { href: string }).href).pathname),
        )) as string[];
      if (role === 'support') {
        assert.deepEqual(sections, [
          '/console/users',
          '/console/activity',
          '/console/admin-logs',
          '/console/tokens',
        ]);
      }
      const problems: string[] = [];
      const refusal = async (res: { status(): number; text(): Promise<string> }) =>
        res.status() === 403 ? (await res.text()).replace(/[\s\S]*role="alert">([^<]*)[\s\S]*/, '$1') : '';
      for (const section of sections) {
        const res = await page.goto(url(section));
        if (res?.status() === 403) problems.push(`nav ${section}: 403`);
        // Links of the page (not the shell's, checked above), as the browser would follow them.
        const links = (await page
          .locator('main a[href]:visible')
          .evaluateAll((as) => as.map((a) => (a as unknown as { href: string }).href))) as string[];
        for (const href of new Set(links.filter((h) => h.startsWith(env.platform.url)))) {
          const why = await refusal(await page.request.get(href, { maxRedirects: 0 }));
          if (why) problems.push(`${section}: link ${href}: ${why}`);
        }
        // Every visible button of a POST form, sent as the browser would send it (danger-zone actions answer
        // with their confirmation and change nothing).
        // (A string, as the e2e project compiles without the DOM's types.)
        const forms = (await page.evaluate(`[...document.querySelectorAll('form[method="post"]')]
          .filter((form) => [...form.querySelectorAll('button')].some((b) => b.checkVisibility()))
          .map((form) => ({
            action: form.action,
            multipart: form.enctype === 'multipart/form-data',
            fields: [...new FormData(form)].filter(([, v]) => typeof v === 'string'),
          }))`)) as { action: string; multipart: boolean; fields: [string, string][] }[];
        for (const form of forms) {
          if (NOT_SENT.test(new URL(form.action).pathname)) continue;
          const data = Object.fromEntries(form.fields);
          const res = await page.request.post(form.action, {
            ...(form.multipart ? { multipart: data } : { form: data }),
            maxRedirects: 0,
          });
          const why = await refusal(res);
          if (why && !/needs a recent sign-in/.test(why))
            problems.push(`${section}: form ${form.action}: ${why}`);
        }
      }
      assert.deepEqual(problems, [], `${role} meets a 403`);
      await page.close();
    });
  }

  it('Support meeting a page of another role: the 403 keeps the navigation and says who can', async () => {
    const page = await signedIn.support!.newPage();
    const res = await page.goto(url('/console/applications'));
    assert.equal(res?.status(), 403);
    await page.getByRole('heading', { name: 'Not available to your role' }).waitFor();
    assert.match(
      (await page.getByRole('alert').textContent()) ?? '',
      /Only an Owner or Administrator can see applications\./,
    );
    assert.ok(await nav(page).getByRole('link', { name: 'Users' }).isVisible());
    assert.equal(await nav(page).getByRole('link', { name: 'Applications' }).count(), 0);
    await checkPage(page, 'console-shell-1280-support-403');
    await page.close();
  });
});
