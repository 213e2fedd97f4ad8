import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it, jest } from '@jest/globals';
import { eventually, portForChild } from '@sesame/testing';
import { type Browser, type Page, desktopContext, launchBrowser } from '@sesame/testing/browser';
import { type RunningLauncher, devMail, devMailCode, readDemo, startLauncher } from './embedded-launcher';
import {
  activityLogs,
  authorizationRequest,
  callbackOrigin,
  passkeyBrowser,
  redeemCallback,
  rpConfig,
  withoutPasskeyAutofill,
} from './hosted-signin-support';

/**
 * Issue 36, "Done when": `npm start` on a data directory; in Chromium the demo Owner creates an application
 * in the Console, brands the tenant and invites an administrator, and a person signs in to the new application
 * and creates a passkey (DevTools virtual authenticator); then the launcher is stopped (SIGTERM, or kill -9)
 * and started again on the same directory: the client id works at /authorize, the brand shows, the person
 * signs in with the same passkey as the same subject, the invitation link mailed before the restart is
 * accepted, and the activity log has the first sign-in.
 */
jest.setTimeout(300_000);

const ACCENT = '#0f766e';
const ACCENT_RGB = 'rgb(15, 118, 110)';
const REDIRECT_URI = `${callbackOrigin}/callback`;
// The tests are typed without the DOM library: the browser's getComputedStyle, typed as it is used.
type Styles = { getComputedStyle(e: unknown): { backgroundColor: string } };

describe('npm start keeps its data across a restart, in a real browser', () => {
  let browser: Browser;
  const dirs: string[] = [];
  const running: RunningLauncher[] = [];
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    for (const l of running) await l.crash();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  /** Through Sesame's hosted pages: email, the code from the outbox, consent and the invitation when asked. */
  async function signInWithCode(page: Page, url: string, email: string): Promise<void> {
    const sentAfter = new Date();
    await page.getByLabel('Email address').fill(email);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByLabel('Verification code').fill(await devMailCode(url)(email, sentAfter));
    await page.getByRole('button', { name: 'Verify' }).click();
    const nav = page.getByRole('navigation', { name: 'Console' });
    const approve = page.getByRole('button', { name: 'Approve' });
    const accept = page.getByRole('button', { name: 'Accept invitation' });
    await nav.or(approve).or(accept).first().waitFor();
    if (await approve.isVisible()) await approve.click();
    await nav.or(accept).first().waitFor();
    if (await accept.isVisible()) await accept.click();
    await nav.waitFor();
  }

  for (const stop of ['SIGTERM', 'SIGKILL'] as const) {
    it(`after ${stop === 'SIGTERM' ? 'SIGTERM' : 'kill -9'}: the console-made app, the brand, the person's passkey, the invitation and the activity log are all still there`, async () => {
      const tmp = mkdtempSync(join(tmpdir(), 'sesame-restart-'));
      dirs.push(tmp);
      const opts = {
        dataDir: join(tmp, 'data'),
        demoFile: join(tmp, 'demo.json'),
        adminKey: `restart-test-admin-key-${stop}-0123456789`,
        // The same port both times: the issuer, and the origin the passkey and the cookies belong to.
        port: await portForChild(),
      };
      let launcher = await startLauncher(opts);
      running.push(launcher);
      const url = launcher.url;
      const demo = readDemo(opts.demoFile);
      const brand = `Restart Brand ${stop}`;

      // The Owner, in the Console: an application, the brand, an invitation.
      const admin = await desktopContext(browser);
      const consolePage = await admin.newPage();
      await consolePage.goto(`${url}/console/`);
      await signInWithCode(consolePage, url, demo.ownerEmail);
      const nav = consolePage.getByRole('navigation', { name: 'Console' });
      await nav.getByRole('link', { name: 'Applications' }).click();
      await consolePage.getByRole('link', { name: 'New application' }).click();
      await consolePage.getByLabel('Name').fill('Kept app');
      await consolePage.getByLabel('Redirect URIs').fill(REDIRECT_URI);
      await consolePage.getByRole('button', { name: 'Create application' }).click();
      const clientId = await consolePage.getByLabel('Client ID').inputValue();
      const clientSecret = await consolePage.getByLabel('Client secret').inputValue();
      assert.ok(clientId && clientSecret);

      await nav.getByRole('link', { name: 'Branding' }).click();
      await consolePage.getByLabel('Display name').fill(brand);
      await consolePage.getByLabel('Accent colour').fill(ACCENT);
      await consolePage.getByLabel('Background colour').fill('#ffffff');
      await consolePage.getByLabel('Dark scheme accent').fill('#5eead4');
      await consolePage.getByLabel('Dark scheme background').fill('#042f2e');
      await consolePage.getByRole('button', { name: 'Save branding' }).click();
      const saved = consolePage.getByRole('status').filter({ hasText: 'Saved.' });
      await saved.or(consolePage.getByRole('alert')).first().waitFor();
      assert.ok(await saved.isVisible(), await consolePage.locator('main').innerText());

      const invitee = `invited-${stop.toLowerCase()}@example.com`;
      await nav.getByRole('link', { name: 'Administrators' }).click();
      const invitedAfter = new Date();
      await consolePage.getByLabel('Email address').fill(invitee);
      await consolePage.getByRole('button', { name: 'Send invitation' }).click();
      await consolePage.getByRole('status').waitFor();
      // The development outbox is in memory: the link is kept from before the restart, as a mail would be.
      const invitation = await devMail(url, invitee, invitedAfter);
      const link = /(https?:\/\/\S+\/console\/invitations\/[\w-]+)/.exec(invitation.text)?.[1];
      assert.ok(link, invitation.text);
      await admin.close();

      // A person signs in to the new application by email code and creates a passkey.
      const person = await passkeyBrowser(await desktopContext(browser));
      await withoutPasskeyAutofill(person.context);
      const email = `person-${stop.toLowerCase()}@example.com`;
      let config = await rpConfig(url, clientId, clientSecret);
      let req = await authorizationRequest(config, REDIRECT_URI, { scope: 'openid', prompt: 'login' });
      const firstSignInAt = Date.now();
      await person.page.goto(req.url.href);
      const sentAfter = new Date();
      await person.page.getByLabel('Email address').fill(email);
      await person.page.getByRole('button', { name: 'Continue' }).click();
      await person.page.getByLabel('Verification code').fill(await devMailCode(url)(email, sentAfter));
      await person.page.getByRole('button', { name: 'Verify' }).click();
      let callback = person.callbacks.next();
      await person.page.getByRole('button', { name: 'Create a passkey' }).click();
      const first = await redeemCallback(config, await callback, req);
      assert.deepEqual(first.amr, ['ts.svc.email_otp']);
      assert.equal((await person.authenticator.credentials()).length, 1);

      // Stop, and start again on the same directory.
      if (stop === 'SIGTERM') assert.equal(await launcher.stop(), 0, launcher.output().slice(-3000));
      else await launcher.crash();
      const restartedAt = Date.now();
      launcher = await startLauncher(opts);
      running.push(launcher);
      assert.equal(launcher.url, url);

      // The console-made client id works at /authorize, and the page carries the brand.
      config = await rpConfig(url, clientId, clientSecret);
      req = await authorizationRequest(config, REDIRECT_URI, { scope: 'openid', prompt: 'login' });
      await person.page.goto(req.url.href);
      await person.page.getByRole('heading', { level: 1 }).waitFor();
      assert.doesNotMatch(await person.page.content(), /Unknown application/);
      await person.page.getByRole('button', { name: 'Use a passkey' }).waitFor();
      assert.match(await person.page.title(), new RegExp(` – ${brand}$`));
      const accent = await person.page
        .getByRole('button', { name: 'Continue' })
        .evaluate((b) => (globalThis as unknown as Styles).getComputedStyle(b).backgroundColor);
      assert.equal(accent, ACCENT_RGB);

      // The person signs in with the same passkey, as the same subject.
      callback = person.callbacks.next();
      await person.page.getByRole('button', { name: 'Use a passkey' }).click();
      const again = await redeemCallback(config, await callback, req);
      assert.deepEqual(again.amr, ['ts.svc.mfca']);
      assert.equal(again.sub, first.sub);
      assert.equal((await person.authenticator.credentials()).length, 1, 'no new passkey was made');
      await person.context.close();

      // The invited administrator accepts the invitation mailed before the restart.
      const invited = await desktopContext(browser);
      const invitedPage = await invited.newPage();
      await invitedPage.goto(link);
      await signInWithCode(invitedPage, url, invitee);
      await invited.close();

      // The activity log shows the first sign-in (before the restart) of the person.
      const apps = await fetch(`${url}/api/v1/admin/tenants/${demo.tenantId}/applications`, {
        headers: { authorization: `Bearer ${opts.adminKey}` },
      });
      const { applications } = (await apps.json()) as {
        applications: { appId: string; clientId: string }[];
      };
      const appId = applications.find((a) => a.clientId === clientId)?.appId;
      assert.ok(appId, 'the console-made application is listed');
      const logs = activityLogs({
        tokenUrl: `${url}/token`,
        adminUrl: url,
        appId,
        credentialsId: demo.credentialsId,
        apiSecret: demo.apiSecret,
        since: firstSignInAt,
      });
      const records = await eventually(
        () => logs.query({ userId: String(first.sub) }),
        (rs) => rs.some((r) => r.timestamp < restartedAt && r.status === 'success'),
        30_000,
        250,
      );
      const before = records.filter((r) => r.timestamp < restartedAt && r.status === 'success');
      assert.deepEqual(
        before.map((r) => r.authMethodType),
        ['email_otp'],
      );

      if (stop === 'SIGTERM') assert.equal(await launcher.stop(), 0, launcher.output().slice(-3000));
      else await launcher.crash();
    });
  }
});
