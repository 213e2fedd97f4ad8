import { afterAll, beforeAll } from '@jest/globals';
import {
  type Browser,
  type BrowserContext,
  type Page,
  checkPage,
  desktopContext,
  launchBrowser,
  phoneContext,
} from '@sesame/testing/browser';
import type * as oidc from 'openid-client';
import { catchCallbacks, rpConfig } from './hosted-signin-support';
import { type RealPlatform, startRealPlatform } from './token-fixtures';

/** The two browsers every experience test runs in: a desktop in the light scheme, a phone in the dark one. */
export type Kind = 'desktop' | 'phone';
export const KINDS: Kind[] = ['desktop', 'phone'];

/**
 * A describe's hosted-page suite (the experience fixes of issue 25): the six services on the real servers with
 * the test SMTP server, Debian's chromium and the demo app's RP configuration, started before the tests and
 * stopped after them; the contexts the tests open are closed, and each checked page's bytes printed at the end.
 * `env` is read when the suite starts (a stand-in provider's URL may only be known then).
 */
export function experienceSuite(name: string, env: () => Record<string, string>) {
  let platform: RealPlatform;
  let browser: Browser;
  let config: oidc.Configuration;
  const contexts: BrowserContext[] = [];
  const pageBytes: Record<string, number> = {};

  beforeAll(async () => {
    platform = await startRealPlatform(name, { smtp: true, env: env() });
    browser = await launchBrowser();
    config = await rpConfig(platform.platform.url, platform.demo.clientId, platform.demo.clientSecret);
  });
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await platform?.stop();
    console.log(`${name} page bytes: ${JSON.stringify(pageBytes)}`);
  });

  return {
    get env() {
      return platform;
    },
    get config() {
      return config;
    },
    /** A desktop (light) or a phone (dark) context, its RP callbacks caught, one page open. */
    async open(kind: Kind) {
      const context =
        kind === 'desktop'
          ? await desktopContext(browser, { colorScheme: 'light' })
          : await phoneContext(browser, { colorScheme: 'dark' });
      contexts.push(context);
      const callbacks = await catchCallbacks(context);
      const page = await context.newPage();
      return { context, callbacks, page };
    },
    /** checkPage (axe, 100 KB, screenshot) under `<suite>-<page>`, its bytes kept for the report. */
    async check(page: Page, pageName: string) {
      pageBytes[pageName] = (await checkPage(page, `${name}-${pageName}`)).bytes;
    },
  };
}

/**
 * Pastes `text` into the code field (#code) as a person's paste would: a ClipboardEvent carrying the text.
 * (Evaluated as text: the e2e files are typed without the DOM library.)
 */
export const pasteCode = (page: Page, text: string) =>
  page.evaluate(`(() => {
    const data = new DataTransfer();
    data.setData('text/plain', ${JSON.stringify(text)});
    const paste = new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true });
    document.getElementById('code').dispatchEvent(paste);
  })()`);
