import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, it, jest } from '@jest/globals';
import { eventually, mailbox } from '@sesame/testing';
import {
  type Browser,
  type BrowserContext,
  type Page,
  checkPage,
  desktopContext,
  launchBrowser,
} from '@sesame/testing/browser';
import type * as oidc from 'openid-client';
import { managementToken } from './admin-cli';
import {
  authorizationRequest,
  catchCallbacks,
  freshEmail,
  identify,
  mailedCode,
  rpConfig,
} from './hosted-signin-support';
import { type RealPlatform, startRealPlatform } from './token-fixtures';

jest.setTimeout(300_000);

type AdminEvent = { activityType: string; adminEmail: string; data: Record<string, unknown> };

/**
 * Issue 24's support question, end to end on the six services with the real Redis, Kafka, Mongo-wire and SMTP
 * servers, in Chromium: a person signs in once, then types five wrong codes; a Support administrator (invited
 * by the demo tenant's Owner through the console) finds them by email, reads both sign-ins with their outcomes
 * in words, opens the failed one, blocks the device (the person's next sign-in from it is refused), exports CSV
 * and JSON, and the admin logs credit the block and the exports to the Support administrator.
 */
describe('Support in the console: what happened to this person’s sign-in?', () => {
  let env: RealPlatform;
  let browser: Browser;
  let config: oidc.Configuration;
  const contexts: BrowserContext[] = [];
  beforeAll(async () => {
    env = await startRealPlatform('support', { smtp: true });
    browser = await launchBrowser();
    config = await rpConfig(env.platform.url, env.demo.clientId, env.demo.clientSecret);
  });
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await env?.stop();
  });

  const newContext = async () => {
    const c = await desktopContext(browser);
    contexts.push(c);
    return c;
  };

  /** An administrator's console sign-in through Sesame's hosted pages (consent the first time). */
  async function consoleSignIn(page: Page, email: string): Promise<void> {
    const sentAfter = await identify(page, email);
    await page.getByLabel('Verification code').fill(await mailedCode(email, sentAfter));
    await page.getByRole('button', { name: 'Verify' }).click();
    const nav = page.getByRole('navigation', { name: 'Console' });
    const approve = page.getByRole('button', { name: 'Approve' });
    // Signing in from an invitation link ends on the invitation page (who invited, role, expiry): accept it.
    const accept = page.getByRole('button', { name: 'Accept invitation' });
    await nav.or(approve).or(accept).first().waitFor();
    if (await approve.isVisible()) await approve.click();
    await nav.or(accept).first().waitFor();
    if (await accept.isVisible()) await accept.click();
    await nav.waitFor();
  }

  async function adminEvents(types: string[]): Promise<AdminEvent[]> {
    const token = await managementToken(env.platform.url, env.demo.credentialsId, env.demo.apiSecret);
    const query = new URLSearchParams({
      fromTime: String(Date.now() - 1_200_000),
      toTime: String(Date.now() + 60_000),
      credentialsId: env.demo.credentialsId,
    });
    const logs = await eventually(
      async () =>
        (await (
          await fetch(`${env.platform.url}/api/vbeta/mgmt/admin-logs?${query}`, {
            headers: { authorization: `Bearer ${token}` },
          })
        ).json()) as { data?: { events?: AdminEvent[] } },
      (l) => types.every((t) => (l.data?.events ?? []).some((e) => e.activityType === t)),
      30_000,
      250,
    );
    return logs.data!.events!;
  }

  it('a Support administrator finds the person, reads both sign-ins in words, blocks the device, exports; the admin logs say who', async () => {
    // The person: one sign-in, then five wrong codes (prompt=login: not answered from their session).
    const person = await newContext();
    const callbacks = await catchCallbacks(person);
    const personPage = await person.newPage();
    const email = freshEmail('support-person');
    await personPage.goto((await authorizationRequest(config, env.demo.redirectUri)).url.href);
    const sentAfter = await identify(personPage, email);
    await personPage.getByLabel('Verification code').fill(await mailedCode(email, sentAfter));
    const firstCallback = callbacks.next();
    await personPage.getByRole('button', { name: 'Verify' }).click();
    // A new person: consent, and perhaps the passkey offer (Not now), in whichever order they come.
    let signedIn = false;
    void firstCallback.then(() => {
      signedIn = true;
    });
    const nextStep = personPage
      .getByRole('button', { name: 'Approve' })
      .or(personPage.getByRole('button', { name: 'Not now' }))
      .first();
    while (!signedIn) {
      await Promise.race([firstCallback, nextStep.waitFor().catch(() => undefined)]);
      if (!signedIn) await nextStep.click().catch(() => undefined);
    }
    assert.ok(new URL(await firstCallback).searchParams.get('code'), 'the first sign-in succeeds');
    // The callback is caught when requested; let its page load before navigating away, or it interrupts.
    await personPage.getByRole('heading', { name: 'Back at the app' }).waitFor();

    await personPage.goto(
      (await authorizationRequest(config, env.demo.redirectUri, { prompt: 'login' })).url.href,
    );
    const failedAfter = await identify(personPage, email);
    const code = await mailedCode(email, failedAfter);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) {
      await personPage.getByLabel('Verification code').fill(wrong);
      await Promise.all([
        personPage.waitForResponse((r) => r.url().endsWith('/code') && r.request().method() === 'POST'),
        personPage.getByRole('button', { name: 'Verify' }).click(),
      ]);
    }
    await personPage.getByText('Too many attempts. Request a new code.').waitFor();

    // The Owner invites a Support administrator through the console.
    const ownerContext = await newContext();
    const owner = await ownerContext.newPage();
    await owner.goto(`${env.platform.url}/console/`);
    await consoleSignIn(owner, env.demo.ownerEmail);
    const supportEmail = freshEmail('support-admin');
    await owner
      .getByRole('navigation', { name: 'Console' })
      .getByRole('link', { name: 'Administrators' })
      .click();
    const invitedAfter = new Date();
    await owner.getByLabel('Email address').fill(supportEmail);
    await owner.getByLabel('Role').selectOption({ label: 'Support' });
    await owner.getByRole('button', { name: 'Send invitation' }).click();
    await owner.getByRole('status').waitFor();
    const mail = await mailbox().waitForMessageTo(supportEmail, { timeoutMs: 15_000, after: invitedAfter });
    const link = /(https?:\/\/\S+\/console\/invitations\/[\w-]+)/.exec(mail.text)?.[1];
    assert.ok(link, mail.text);
    const supportContext = await newContext();
    const page = await supportContext.newPage();
    await page.goto(link);
    await consoleSignIn(page, supportEmail);

    // Users: Find a user by email (any case).
    const nav = page.getByRole('navigation', { name: 'Console' });
    await nav.getByRole('link', { name: 'Users' }).click();
    await checkPage(page, 'console-support-users');
    await page.getByLabel('Find a user').fill(email.toUpperCase());
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('link', { name: email }).click();
    await page.getByRole('heading', { level: 1, name: email }).waitFor();
    await checkPage(page, 'console-support-user');

    // Both sign-ins, newest first, with their outcomes in words.
    const signIns = page.locator('h2#sign-ins + div table tbody tr');
    // The activity records arrive through Kafka: reload until both are there.
    await eventually(
      async () => {
        const n = await signIns.count();
        if (n < 2) await page.reload();
        return n;
      },
      (n) => n >= 2,
      30_000,
      500,
    );
    const outcomes = await signIns.locator('td:last-child').allTextContents();
    assert.deepEqual(outcomes.slice(0, 2), [
      'Wrong code entered 5 times; the code was invalidated',
      'Signed in with an email code',
    ]);

    // The failed one: its timeline in words, the devices and IP, the raw JSON; its export.
    await signIns.first().getByRole('link').click();
    await page.getByText('Wrong code entered 5 times; the code was invalidated').first().waitFor();
    assert.equal(await page.getByText('Entered a wrong or expired email code.').count(), 5);
    await page.getByText('Saw the sign-in page (the email step).').waitFor();
    await page.getByRole('heading', { name: 'Raw JSON' }).waitFor();
    await checkPage(page, 'console-support-flow');
    const [flowDownload] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export JSON' }).click(),
    ]);
    const flowJson = JSON.parse(await readFile((await flowDownload.path())!, 'utf8')) as {
      id: string;
      email?: string;
    };
    assert.equal(flowJson.email, email);
    const failedFlowId = flowJson.id;

    // Block the person's device.
    await nav.getByRole('link', { name: 'Users' }).click();
    await page.getByLabel('Find a user').fill(email);
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('link', { name: email }).click();
    await page
      .getByRole('button', { name: /^Block / })
      .first()
      .click();
    // The confirmation step says what breaks; its confirm button carries the same name.
    await page.getByRole('heading', { name: 'Danger zone' }).waitFor();
    await page.getByRole('button', { name: /^Block / }).click();
    await page
      .getByRole('button', { name: /^Unblock / })
      .first()
      .waitFor();

    // The person's next sign-in from that device is refused.
    const refused = callbacks.next();
    await personPage.goto(
      (await authorizationRequest(config, env.demo.redirectUri, { prompt: 'login' })).url.href,
    );
    const blockedAfter = await identify(personPage, email);
    await personPage.getByLabel('Verification code').fill(await mailedCode(email, blockedAfter));
    await personPage.getByRole('button', { name: 'Verify' }).click();
    assert.equal(new URL(await refused).searchParams.get('error'), 'access_denied');

    // Activity: Export CSV and Export JSON of the filtered set.
    await nav.getByRole('link', { name: 'Activity' }).click();
    await page.getByLabel('Status').selectOption('failure');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.getByText('Wrong code entered 5 times; the code was invalidated').first().waitFor();
    await checkPage(page, 'console-support-activity');
    const [csvDownload] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    const csv = await readFile((await csvDownload.path())!, 'utf8');
    assert.match(csv.split('\r\n')[0]!, /^id,time,applicationId,userId,email,/);
    assert.ok(csv.includes(`${failedFlowId},`), 'the failed flow is in the CSV');
    assert.ok(csv.includes('Wrong code entered 5 times; the code was invalidated'));
    const [jsonDownload] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export JSON' }).click(),
    ]);
    const records = JSON.parse(await readFile((await jsonDownload.path())!, 'utf8')) as {
      id: string;
      status: string;
    }[];
    assert.ok(records.some((r) => r.id === failedFlowId));
    assert.ok(records.every((r) => r.status === 'failure'));

    // The admin logs: the block and the exports, by the Support administrator.
    const events = await adminEvents(['administrator_block_user_device', 'administrator_export_event_data']);
    const block = events.find((e) => e.activityType === 'administrator_block_user_device')!;
    assert.equal(block.adminEmail, supportEmail);
    assert.equal(block.data.allowAccess, false);
    const exports = events.filter((e) => e.activityType === 'administrator_export_event_data');
    assert.ok(exports.every((e) => e.adminEmail === supportEmail));
    assert.ok(exports.some((e) => e.data.multipeEvents === false && e.data.flowId === failedFlowId));
    assert.ok(exports.some((e) => e.data.multipeEvents === true));
  });
});
