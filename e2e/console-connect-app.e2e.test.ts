import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, it, jest } from '@jest/globals';
import {
  type Browser,
  type BrowserContext,
  type Page,
  checkPage,
  desktopContext,
  launchBrowser,
} from '@sesame/testing/browser';
import { callbackOrigin, freshEmail, mailedCode } from './hosted-signin-support';
import { personBrowser, signIn } from './standard-rp-person';
import { isError, openidClientRp } from './standard-rp-support';
import { type RealPlatform, startRealPlatform } from './token-fixtures';

jest.setTimeout(180_000);

/**
 * Issue 37's newcomer: the demo tenant's Owner signs in to the Console, creates a Web application with the
 * keyboard alone (Tab, Space, typing, Enter; no pointer event reaches the page), reads the Issuer, Client ID
 * and Client secret from the page's Connect your app section, configures an off-the-shelf RP (openid-client)
 * with exactly those values, and a person signs in to that RP end to end by emailed code in Chromium. Then
 * (issue 41) the Owner switches that application to private_key_jwt with a public JWK Set, DPoP and PAR
 * through the Advanced controls' accessible names.
 */
describe('Console: connect an app from what the Console shows', () => {
  let env: RealPlatform;
  let browser: Browser;
  /** The Owner's page, signed in (the first test's); the second goes on with it. */
  let ownerPage: Page | undefined;
  const contexts: BrowserContext[] = [];
  beforeAll(async () => {
    env = await startRealPlatform('console-connect-app', {
      smtp: true,
    });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await env?.stop();
  });

  /** What has keyboard focus: its tag, id, type, accessible text. */
  const focused = (page: Page) =>
    page.evaluate(`(() => {
      const el = document.activeElement;
      return {
        tag: el ? el.tagName.toLowerCase() : '',
        id: el ? el.id : '',
        type: (el && el.getAttribute('type')) || '',
        text: ((el && el.textContent) || '').trim(),
      };
    })()`) as Promise<{ tag: string; id: string; type: string; text: string }>;

  /** How many pointer events the page has seen (counted by the context's init script). */
  const pointerEvents = (page: Page) => page.evaluate('window.pointerEvents') as Promise<number>;

  /** Presses Tab until `wanted` holds for the focused element (at most 80 times): keyboard navigation only. */
  async function tabUntil(
    page: Page,
    what: string,
    wanted: (f: Awaited<ReturnType<typeof focused>>) => boolean,
  ) {
    for (let i = 0; i < 80; i++) {
      await page.keyboard.press('Tab');
      if (wanted(await focused(page))) return;
    }
    throw new Error(`Tab never reached ${what}`);
  }

  it('a newcomer creates a Web application with the keyboard alone and signs a person in to it with the values shown', async () => {
    const context = await desktopContext(browser);
    contexts.push(context);
    // Every pointer event the page sees is counted: the creation must need none.
    await context.addInitScript({
      content: `window.pointerEvents = 0;
for (const type of ['pointerdown', 'mousedown', 'touchstart'])
  window.addEventListener(type, () => window.pointerEvents++, true);`,
    });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.platform.url });
    const page = await context.newPage();
    ownerPage = page;
    await page.goto(`${env.platform.url}/console/applications`);
    const owner = env.demo.ownerEmail;
    const sentAfter = new Date();
    await page.getByLabel('Email address').fill(owner);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByLabel('Verification code').fill(await mailedCode(owner, sentAfter));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('heading', { level: 1, name: 'Applications' }).waitFor();

    // From here on the keyboard alone, on a page the pointer never touched.
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Applications' }).waitFor();
    await tabUntil(page, 'New application', (f) => f.tag === 'a' && f.text === 'New application');
    await page.keyboard.press('Enter');
    const kinds = page.getByRole('radiogroup', { name: 'Kind of application' });
    await kinds.waitFor();
    for (const name of [
      'Web application',
      'Single-page application',
      'Native or mobile application',
      'Machine to machine',
    ])
      assert.equal(await kinds.getByRole('radio', { name }).count(), 1, name);
    await checkPage(page, 'console-new-application-kinds');
    await tabUntil(page, 'the kind radio group', (f) => f.tag === 'input' && f.type === 'radio');
    // Arrow keys move within the group; back to Web application, chosen with Space.
    await page.keyboard.press('ArrowDown');
    assert.equal(await kinds.getByRole('radio', { name: 'Single-page application' }).isChecked(), true);
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Space');
    assert.equal(await kinds.getByRole('radio', { name: 'Web application' }).isChecked(), true);
    await page.keyboard.press('Tab');
    assert.equal((await focused(page)).id, 'app-name');
    await page.keyboard.type('Newcomer app');
    await page.keyboard.press('Tab');
    assert.equal((await focused(page)).id, 'app-redirects');
    const redirectUri = `${callbackOrigin}/newcomer/callback`;
    await page.keyboard.type(redirectUri);
    await tabUntil(page, 'Create application', (f) => f.tag === 'button' && f.text === 'Create application');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 2, name: 'Connect your app' }).waitFor();
    assert.equal(await pointerEvents(page), 0, 'created without the mouse');

    // The values as the page shows them (the DOM, not the API).
    const issuer = await page.getByLabel('Issuer').inputValue();
    const discoveryUrl = await page.getByLabel('Discovery URL').inputValue();
    const clientId = await page.getByLabel('Client ID').inputValue();
    const clientSecret = await page.getByLabel('Client secret').inputValue();
    assert.equal(issuer, env.platform.url);
    assert.equal(discoveryUrl, `${issuer}/.well-known/openid-configuration`);
    assert.ok(clientId && clientSecret);
    // Copy Client ID, by keyboard: the clipboard holds it and the page says so.
    await tabUntil(page, 'Copy Client ID', (f) => f.tag === 'button' && f.text === 'Copy Client ID');
    await page.keyboard.press('Enter');
    await page.getByRole('status').filter({ hasText: 'Client ID copied to the clipboard.' }).waitFor();
    assert.equal(await page.evaluate('navigator.clipboard.readText()'), clientId);
    await tabUntil(page, 'Copy Client secret', (f) => f.tag === 'button' && f.text === 'Copy Client secret');
    // openid-client's configuration, opened from the keyboard, carries the same values.
    await tabUntil(
      page,
      'openid-client (Node)',
      (f) => f.tag === 'summary' && f.text === 'openid-client (Node)',
    );
    await page.keyboard.press('Enter');
    const snippet = page.locator('#snippet-node');
    await snippet.waitFor({ state: 'visible' });
    const code = (await snippet.textContent()) ?? '';
    for (const value of [issuer, clientId, clientSecret, redirectUri]) assert.ok(code.includes(value), value);
    assert.equal(await pointerEvents(page), 0, 'no pointer at all on this page');
    await checkPage(page, 'console-connect-your-app');

    // A sample RP configured with those values; a person signs in to it by emailed code.
    const rp = await openidClientRp({ issuer, clientId, clientSecret, redirectUri });
    const person = await personBrowser(browser, contexts);
    const email = freshEmail('newcomer-rp');
    const req = await rp.authorize({ scope: 'openid email' });
    await person.page.goto(req.url);
    const answer = await req.finish(await signIn(person, email));
    if (isError(answer)) throw new Error(`the RP got ${answer.error}`);
    assert.equal(answer.claims.iss, issuer);
    assert.equal(answer.claims.aud, clientId);
    assert.equal(answer.claims.email, email);
    const info = await rp.userinfo(answer.accessToken);
    assert.equal(info.status, 200);
    assert.equal(info.body?.email, email);
  });

  it('issue 41: the Owner sets private_key_jwt, a public JWK Set, Require DPoP and Require PAR by their names; a private key is refused beside its field; all kept after a reload', async () => {
    const page = ownerPage!;
    await page.goto(`${env.platform.url}/console/applications`);
    await page.getByRole('link', { name: 'Newcomer app' }).click();
    await page.getByRole('heading', { level: 1, name: 'Newcomer app' }).waitFor();
    const advanced = page.locator('details.advanced');
    await advanced.locator('summary').click();
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const { d, ...pub } = { ...privateKey.export({ format: 'jwk' }), kid: 'newcomer-1', alg: 'ES256' };
    assert.ok(d);
    const method = page.getByLabel('Client authentication method');
    const keys = page.getByLabel('Public keys (JWK Set)');
    const dpop = page.getByLabel('Require DPoP', { exact: true });
    const par = page.getByLabel('Require pushed authorization requests', { exact: true });
    assert.equal(await method.inputValue(), 'client_secret_basic');
    assert.equal(await page.getByLabel('JWK Set URL', { exact: true }).inputValue(), '');

    // The private key pasted by mistake: refused beside the JWK Set, Advanced open, nothing saved.
    await method.selectOption('private_key_jwt');
    await keys.fill(JSON.stringify({ keys: [{ ...pub, d }] }));
    await dpop.check();
    await par.check();
    await page.getByRole('button', { name: 'Save application' }).click();
    await page.locator('#app-jwks-error').waitFor();
    assert.equal(
      await page.locator('#app-jwks-error').textContent(),
      'Public keys (JWK Set): must be a public key (has d)',
    );
    assert.equal(await keys.getAttribute('aria-invalid'), 'true');
    assert.equal(await advanced.getAttribute('open'), '');
    assert.equal(await method.inputValue(), 'private_key_jwt', 'what was chosen is kept');

    // The public half instead: saved, and kept after a reload.
    await keys.fill(JSON.stringify({ keys: [pub] }, null, 2));
    await page.getByRole('button', { name: 'Save application' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    await page.reload();
    await advanced.locator('summary').click();
    assert.equal(await method.inputValue(), 'private_key_jwt');
    assert.deepEqual(JSON.parse(await keys.inputValue()), { keys: [pub] });
    assert.equal(await dpop.isChecked(), true);
    assert.equal(await par.isChecked(), true);
    // The page with Advanced open (its new controls included): axe, 100 KB, screenshot.
    await checkPage(page, 'console-application-client-auth');
  });
});
