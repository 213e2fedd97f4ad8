import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it, jest } from '@jest/globals';
import { type ExampleRp, loadExampleConfig, startExampleRp } from '@sesame/example-rp';
import { eventually } from '@sesame/testing';
import {
  type Browser,
  type Page,
  axeViolations,
  describeViolations,
  desktopContext,
  launchBrowser,
} from '@sesame/testing/browser';
import { type RunningLauncher, devMailCode, readDemo, startLauncher } from './embedded-launcher';
import { freshEmail } from './hosted-signin-support';

/**
 * Issue 39: the sample app (examples/rp, `npm run example`) against `npm start`'s launcher, Chromium doing the
 * person's part as a newcomer would: Sign in on the app, the email code from the development outbox, the
 * claims page, Sign out (RP-initiated logout) back to the app's home page; and, separately, a session that
 * Sesame ends (the person signs out at Sesame) reaching the app over the back channel. The app reads the
 * issuer and the demo client from the demo file the launcher wrote; it listens on a free port here, which the
 * test registers on the demo app as the admin API lets an integrator.
 */
jest.setTimeout(240_000);

const tmp = mkdtempSync(join(tmpdir(), 'sesame-example-rp-'));
const demoFile = join(tmp, 'demo.json');
let launcher: RunningLauncher;
let rp: ExampleRp;
let browser: Browser;
let log: string[] = [];
/** The demo app as npm start seeded it, before this test registers the app's free port on it. */
let seeded: Record<string, unknown>;

beforeAll(async () => {
  launcher = await startLauncher({
    dataDir: join(tmp, 'data'),
    demoFile,
    adminKey: `example-rp-${'k'.repeat(40)}`,
  });
  rp = await startExampleRp(loadExampleConfig({ SESAME_EXAMPLE_DEMO_FILE: demoFile, PORT: '0' }), (line) =>
    log.push(line),
  );
  browser = await launchBrowser();
  seeded = (await (await fetch(appUrl(), { headers: admin() })).json()) as Record<string, unknown>;
  // This run's app is on a free port, not 3000: the same settings for its origin.
  const patched = await fetch(appUrl(), {
    method: 'PATCH',
    headers: { ...admin(), 'content-type': 'application/json' },
    body: JSON.stringify({
      redirectUris: [readDemo(demoFile).redirectUri, `${rp.url}/callback`],
      postLogoutRedirectUris: [`${rp.url}/`],
      backchannelLogoutUri: `${rp.url}/backchannel-logout`,
    }),
  });
  assert.equal(patched.status, 200, await patched.text());
});
afterAll(async () => {
  await browser?.close();
  await rp?.close();
  await launcher?.stop();
});

const appUrl = () => {
  const demo = readDemo(demoFile);
  return `${launcher.url}/api/v1/admin/tenants/${demo.tenantId}/applications/${demo.appId}`;
};
const admin = () => ({ authorization: `Bearer ${readDemo(demoFile).adminKey}` });

/** Every violation axe-core finds on the page: the sample app's pages have none at all. */
async function assertAccessible(page: Page, name: string): Promise<void> {
  const violations = await axeViolations(page);
  assert.equal(violations.length, 0, `${name}:\n${describeViolations(violations)}`);
}

/** The person's part on Sesame's pages: email, the code from the outbox, consent when asked; ends on the app. */
async function signInAtSesame(page: Page, email: string): Promise<void> {
  await page.getByLabel('Email address').fill(email);
  const sentAfter = new Date();
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('Verification code').fill(await devMailCode(launcher.url)(email, sentAfter));
  await page.getByRole('button', { name: 'Verify' }).click();
  const approve = page.getByRole('button', { name: 'Approve' });
  const landed = page.waitForURL(`${rp.url}/claims`, { timeout: 30_000 });
  const first = await Promise.race([
    landed.then(() => 'landed' as const),
    approve.waitFor({ timeout: 30_000 }).then(() => 'consent' as const),
  ]);
  if (first === 'consent') {
    await approve.click();
    await landed;
  }
}

describe('the sample app (npm run example) with npm start', () => {
  it('npm start wrote the issuer to the demo file and registered the sample app’s logout URIs on the demo app', async () => {
    const demo = readDemo(demoFile);
    assert.equal(demo.issuer, launcher.url);
    assert.equal(demo.redirectUri, 'http://localhost:3000/callback');
    assert.deepEqual(seeded.redirectUris, ['http://localhost:3000/callback']);
    assert.deepEqual(seeded.postLogoutRedirectUris, ['http://localhost:3000/']);
    assert.equal(seeded.backchannelLogoutUri, 'http://localhost:3000/backchannel-logout');
    // Not a terminal: the banner is a JSON line naming the sample app as the next step.
    assert.match(launcher.output(), /"sampleApp":"http:\/\/localhost:3000"/);
  });

  it('Sign in with an emailed code, the claims in words and the userinfo answer, then Sign out back to the home page', async () => {
    const context = await desktopContext(browser);
    const page = await context.newPage();
    const email = freshEmail('example-rp');
    await page.goto(rp.url);
    await page.getByRole('heading', { name: 'Sesame sample app' }).waitFor();
    await assertAccessible(page, 'home page');
    await page.getByRole('link', { name: 'Sign in' }).click();
    await page.waitForURL((u) => u.href.startsWith(launcher.url));
    await signInAtSesame(page, email);

    await page.getByRole('heading', { level: 1, name: `Signed in as ${email}` }).waitFor();
    await assertAccessible(page, 'claims page');
    const main = await page.locator('main').innerText();
    assert.match(main, /Subject \(sub\)\s+[0-9a-f-]{36}/);
    assert.match(main, /How \(amr\)\s+an email code/);
    assert.match(main, /Signed in at \(auth_time\)\s+\w{3}, \d{2} \w{3} \d{4}/);
    assert.match(main, new RegExp(`Email\\s+${email.replace(/[.+]/g, '\\$&')} \\(verified\\)`));
    const userinfo = JSON.parse(await page.locator('h2:has-text("The userinfo answer") + pre').innerText());
    assert.equal(userinfo.email, email);
    const sub = /Subject \(sub\)\s+([0-9a-f-]{36})/.exec(main)?.[1];
    assert.equal(userinfo.sub, sub);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL((u) => u.href.startsWith(`${rp.url}/?state=`));
    await page.getByRole('status').filter({ hasText: 'Signed out: of this app and of Sesame.' }).waitFor();
    // Sesame's session ended too: Sign in shows its sign-in page again, not a silent redirect back.
    await page.getByRole('link', { name: 'Sign in' }).click();
    await page.getByLabel('Email address').waitFor();
    await context.close();
  });

  it('a session Sesame ends (signed out at Sesame) reaches the app over the back channel: its home page says so', async () => {
    const context = await desktopContext(browser);
    const page = await context.newPage();
    const email = freshEmail('example-rp-bc');
    await page.goto(`${rp.url}/login`);
    await signInAtSesame(page, email);
    await page.getByRole('heading', { level: 1, name: `Signed in as ${email}` }).waitFor();
    log = [];

    // The person signs out at Sesame itself (no hint from this app: Sesame asks first).
    await page.goto(`${launcher.url}/logout`);
    await page.getByRole('heading', { name: 'Sign out?' }).waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();

    const ended = await eventually(
      async () => log.find((line) => /^back-channel logout for session .+: 1 ended here$/.test(line)),
      (line) => line !== undefined,
      30_000,
      100,
    );
    assert.ok(ended, `no back-channel logout reached the app: ${log.join(' | ')}`);
    await page.goto(rp.url);
    await page.getByRole('status').filter({ hasText: 'Signed out by Sesame (back-channel)' }).waitFor();
    await page.getByRole('link', { name: 'Sign in' }).waitFor();
    await page.goto(`${rp.url}/claims`);
    await page.waitForURL(`${rp.url}/`);
    await context.close();
  });

  it('the back-channel route itself: a forged logout token is 400 invalid_request with the reason', async () => {
    const res = await fetch(`${rp.url}/backchannel-logout`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ logout_token: 'eyJhbGciOiJub25lIn0.e30.' }).toString(),
    });
    assert.equal(res.status, 400);
    const body = (await res.json()) as { error: string; error_description: string };
    assert.equal(body.error, 'invalid_request');
    assert.match(body.error_description, /does not verify/);
  });
});
