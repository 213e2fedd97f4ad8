import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it, jest } from '@jest/globals';
import { clientCredentials, eventually, mailbox } from '@sesame/testing';
import {
  type Browser,
  type BrowserContext,
  type Page,
  checkPage,
  desktopContext,
  launchBrowser,
} from '@sesame/testing/browser';
import { managementToken } from './admin-cli';
import { freshEmail, mailedCode } from './hosted-signin-support';
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
    env = await startRealPlatform('console', {
      smtp: true,
      env: {
        SESAME_MAILS_PER_IP: '100000',
        // every console e2e file signs the demo Owner in by code; the per-address counters live in the shared Redis
        SESAME_MAILS_PER_ADDRESS: '100000',
        SESAME_MAILS_PER_ADDRESS_TENANT: '100000',
        SESAME_MAILS_PER_ADDRESS_GLOBAL: '100000',
        SESAME_MAILS_PER_PROVEN_ADDRESS: '100000',
      },
    });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await env?.stop();
  });

  /** Through Sesame's hosted pages: email and the mailed code; the console is first-party, so never consent. */
  async function signInWithCode(page: Page, email: string): Promise<void> {
    const sentAfter = new Date();
    await page.getByLabel('Email address').fill(email);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByLabel('Verification code').fill(await mailedCode(email, sentAfter));
    await page.getByRole('button', { name: 'Verify' }).click();
    const nav = page.getByRole('navigation', { name: 'Console' });
    const approve = page.getByRole('button', { name: 'Approve' });
    // Signing in from an invitation link ends on the invitation page (who invited, role, expiry): accept it.
    const accept = page.getByRole('button', { name: 'Accept invitation' });
    await nav.or(approve).or(accept).first().waitFor();
    assert.equal(await approve.count(), 0, 'the console is first-party: no consent page');
    if (await accept.isVisible()) {
      await checkPage(page, 'console-invitation');
      await accept.click();
    }
    await nav.waitFor();
  }

  it('the seeded Owner signs in with an emailed code, creates an application and API credentials, invites a Support administrator who cannot create applications; each recorded under the right person', async () => {
    const context = await desktopContext(browser);
    contexts.push(context);
    const page = await context.newPage();
    const owner = env.demo.ownerEmail;
    await page.goto(`${env.platform.url}/console/`);
    await checkPage(page, 'console-signin-identify');
    await signInWithCode(page, owner);
    const nav = page.getByRole('navigation', { name: 'Console' });
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
    // An Owner lands on Home; Applications is one click away.
    await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
    await nav.getByRole('link', { name: 'Applications' }).click();
    await page.getByRole('heading', { name: 'Applications', level: 1 }).waitFor();
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

    // API credentials: the API secret shown once gets a client_credentials token.
    await nav.getByRole('link', { name: 'API credentials' }).click();
    await page.getByRole('button', { name: 'New API credentials' }).click();
    const credentialsId = await page.getByLabel('Credentials ID').inputValue();
    const apiSecret = await page.getByLabel('API secret').inputValue();
    await checkPage(page, 'console-credentials-created');
    const cc = await clientCredentials(`${env.platform.url}/token`, credentialsId, apiSecret);
    assert.equal(cc.status, 200, await cc.clone().text());

    // An invited Support administrator accepts in a second browser context and cannot create an application.
    const supportEmail = freshEmail('support');
    await nav.getByRole('link', { name: 'Administrators' }).click();
    const invitedAfter = new Date();
    await page.getByLabel('Email address').fill(supportEmail);
    await page.getByLabel('Role').selectOption({ label: 'Support' });
    await checkPage(page, 'console-administrators');
    await page.getByRole('button', { name: 'Send invitation' }).click();
    await page.getByRole('status').waitFor();
    const mail = await mailbox().waitForMessageTo(supportEmail, { timeoutMs: 15_000, after: invitedAfter });
    const link = /(https?:\/\/\S+\/console\/invitations\/[\w-]+)/.exec(mail.text)?.[1];
    assert.ok(link, mail.text);
    const second = await desktopContext(browser);
    contexts.push(second);
    const supportPage = await second.newPage();
    await supportPage.goto(link);
    await signInWithCode(supportPage, supportEmail);
    await checkPage(supportPage, 'console-support-admin-logs');
    await supportPage.goto(`${env.platform.url}/console/applications`);
    await supportPage.getByRole('alert').waitFor();
    assert.equal(await supportPage.getByRole('link', { name: 'New application' }).count(), 0);
    await supportPage.goto(`${env.platform.url}/console/tokens`);
    await supportPage
      .getByRole('navigation', { name: 'Console' })
      .getByRole('link', { name: 'Personal API tokens' })
      .click();
    const supportCsrf = await supportPage.locator('input[name=csrf]').first().inputValue();
    const forged = await supportPage.request.post(`${env.platform.url}/console/applications`, {
      form: { csrf: supportCsrf, name: 'Forged', redirectUris: 'https://forged.example/cb' },
      maxRedirects: 0,
    });
    assert.equal(forged.status(), 403);
    const support = await eventually(
      async () =>
        (await (
          await fetch(`${env.platform.url}/api/vbeta/mgmt/admin-logs?${query}`, {
            headers: { authorization: `Bearer ${token}` },
          })
        ).json()) as Logs,
      (l) =>
        (l.data?.events ?? []).some(
          (e) => e.activityType === 'administrator_tenant_invitation_status_approved',
        ),
      30_000,
      250,
    );
    const approved = support.data!.events!.find(
      (e) => e.activityType === 'administrator_tenant_invitation_status_approved',
    )!;
    assert.equal(approved.adminEmail, supportEmail);
    const invitation = support.data!.events!.find(
      (e) => e.activityType === 'administrator_tenant_invitation',
    )!;
    assert.equal(invitation.adminEmail, owner);
    assert.equal(invitation.sessionId, entered.sessionId);
    assert.ok(!support.data!.events!.some((e) => e.data.appName === 'Forged'));

    // Every other console page within the hosted pages' budgets (axe, 100 KB), with a screenshot.
    for (const [name, link] of [
      ['tokens', 'Personal API tokens'],
      ['admin-logs', 'Admin logs'],
      ['settings', 'Settings'],
      ['users', 'Users'],
    ] as const) {
      await nav.getByRole('link', { name: link }).click();
      await page.getByRole('heading', { level: 1 }).waitFor();
      await checkPage(page, `console-${name}`);
    }
    await nav.getByRole('link', { name: 'Personal API tokens' }).click();
    await page.getByRole('link', { name: 'New token' }).click();
    await page.getByLabel('Token name').fill('ci');
    await page.getByRole('button', { name: 'Create token' }).click();
    const personalToken = await page.getByLabel('Token', { exact: true }).inputValue();
    await checkPage(page, 'console-token-created');
    const viaToken = await fetch(
      `${env.platform.url}/api/v1/admin/tenants/${env.demo.tenantId}/applications`,
      {
        headers: { authorization: `Bearer ${personalToken}` },
      },
    );
    assert.equal(viaToken.status, 200);
    await nav.getByRole('link', { name: 'Applications' }).click();
    await page.getByRole('link', { name: 'Console-made app' }).click();
    await checkPage(page, 'console-application');
    // The Danger zone's confirmation is held to the same budgets; Cancel changes nothing.
    await page.getByRole('button', { name: 'Rotate client secret' }).click();
    const cancel = page.getByRole('link', { name: 'Cancel' });
    await cancel.waitFor();
    await checkPage(page, 'console-danger-confirmation');
    await cancel.click();
    await page
      .getByRole('link', { name: 'Console-made app' })
      .or(page.getByRole('heading', { level: 1 }))
      .first()
      .waitFor();

    const cookieOf = async () => (await context.cookies()).find((c) => c.name === 'sesame-console')?.value;
    const before = await cookieOf();
    assert.ok(before);
    // Sign out goes through Sesame's /logout (ending its session too) back to the console's signed-out page.
    const logout = page.waitForRequest((r) => new URL(r.url()).pathname === '/logout');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await logout;
    await page.getByRole('heading', { name: 'Signed out' }).waitFor();
    assert.equal(new URL(page.url()).pathname, '/console/signed-out');
    await checkPage(page, 'console-signed-out');
    assert.equal(await cookieOf(), undefined, 'sign out ends the console session');
    // Sesame's session is gone too: the next visit asks for the email and a code again, and a new console
    // session with a new cookie begins.
    const authorize = page.waitForRequest((r) => new URL(r.url()).pathname === '/authorize');
    await page.goto(`${env.platform.url}/console/applications`);
    await authorize;
    await page.getByLabel('Email address').waitFor();
    await signInWithCode(page, owner);
    const after = await cookieOf();
    assert.ok(after && after !== before);
  });
});
