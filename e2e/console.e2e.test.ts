import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it, jest } from '@jest/globals';
import { eventually } from '@sesame/testing';
import {
  type Browser,
  type BrowserContext,
  checkPage,
  desktopContext,
  launchBrowser,
} from '@sesame/testing/browser';
import { managementToken } from './admin-cli';
import { mailedCode } from './hosted-signin-support';
import { type RealPlatform, startRealPlatform } from './token-fixtures';

jest.setTimeout(180_000);

/**
 * The Sesame Console in Debian's chromium against the platform on the real Redis, Kafka, Mongo-wire and SMTP
 * servers: the demo tenant's seeded Owner signs in with an emailed code through Sesame's own hosted pages
 * (the console is a client of the system tenant) and creates an application; the admin logs credit it to them.
 */
describe('Sesame Console in a real browser', () => {
  let env: RealPlatform;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  beforeAll(async () => {
    env = await startRealPlatform('console', { smtp: true, env: { SESAME_MAILS_PER_IP: '100000' } });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await env?.stop();
  });

  it('the seeded Owner signs in with an emailed code and creates an application, recorded under their email', async () => {
    const context = await desktopContext(browser);
    contexts.push(context);
    const page = await context.newPage();
    const owner = env.demo.ownerEmail;
    await page.goto(`${env.platform.url}/console/`);
    await checkPage(page, 'console-signin-identify');
    const sentAfter = new Date();
    await page.getByLabel('Email address').fill(owner);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByLabel('Verification code').fill(await mailedCode(owner, sentAfter));
    await page.getByRole('button', { name: 'Verify' }).click();
    const nav = page.getByRole('navigation', { name: 'Console' });
    const approve = page.getByRole('button', { name: 'Approve' });
    await nav.or(approve).first().waitFor();
    if (await approve.isVisible()) await approve.click();
    await nav.waitFor();
    for (const name of [
      'Applications',
      'API credentials',
      'Users',
      'Activity',
      'Admin logs',
      'Administrators',
      'Settings',
      'Personal API tokens',
    ]) {
      assert.ok(await nav.getByRole('link', { name }).isVisible(), name);
    }
    await checkPage(page, 'console-applications');

    await page.getByRole('link', { name: 'New application' }).click();
    await page.getByLabel('Name').fill('Console-made app');
    await page.getByLabel('Redirect URIs').fill('https://console-made.example/cb');
    await checkPage(page, 'console-new-application');
    await page.getByRole('button', { name: 'Create application' }).click();
    const clientId = await page.getByLabel('Client ID').inputValue();
    const clientSecret = await page.getByLabel('Client secret').inputValue();
    assert.ok(clientId && clientSecret);
    await checkPage(page, 'console-application-created');

    const token = await managementToken(env.platform.url, env.demo.credentialsId, env.demo.apiSecret);
    const query = new URLSearchParams({
      fromTime: String(Date.now() - 600_000),
      toTime: String(Date.now() + 60_000),
      credentialsId: env.demo.credentialsId,
    });
    type Logs = {
      data?: {
        events?: {
          activityType: string;
          adminEmail: string;
          sessionId: string;
          data: Record<string, unknown>;
        }[];
      };
    };
    const logs = await eventually(
      async () =>
        (await (
          await fetch(`${env.platform.url}/api/vbeta/mgmt/admin-logs?${query}`, {
            headers: { authorization: `Bearer ${token}` },
          })
        ).json()) as Logs,
      (l) => (l.data?.events ?? []).some((e) => e.activityType === 'administrator_create_application'),
      30_000,
      250,
    );
    const created = logs.data!.events!.find((e) => e.activityType === 'administrator_create_application')!;
    assert.equal(created.adminEmail, owner);
    assert.equal(created.data.appName, 'Console-made app');
    const entered = logs.data!.events!.find((e) => e.activityType === 'administrator_enter_tenant')!;
    assert.equal(entered.adminEmail, owner);
    assert.equal(created.sessionId, entered.sessionId, 'one console session');

    const cookieOf = async () => (await context.cookies()).find((c) => c.name === 'sesame-console')?.value;
    const before = await cookieOf();
    assert.ok(before);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Signed out' }).waitFor();
    assert.equal(await cookieOf(), undefined, 'sign out ends the console session');
    // The console session is gone: the console asks Sesame again (whose own browser session may still
    // answer at once), and a new console session with a new cookie begins.
    const authorize = page.waitForRequest((r) => new URL(r.url()).pathname === '/authorize');
    await page.goto(`${env.platform.url}/console/applications`);
    await authorize;
    await nav.waitFor();
    const after = await cookieOf();
    assert.ok(after && after !== before);
  });
});
