import { existsSync } from 'node:fs';
import { type Browser, type BrowserContext, type BrowserContextOptions, chromium } from 'playwright-core';
import { trackTraffic } from './traffic';

/** Flags for Debian's chromium in tests: no sandbox (root, no user namespaces), and no calls home. */
export const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Debian's chromium, driven by playwright-core (a test tool's own browser download cannot work here).
 * `npm test` installs it (scripts/tools/chromium.mjs) and names it in SESAME_CHROMIUM_BIN.
 */
export async function launchBrowser(env: Record<string, string | undefined> = process.env): Promise<Browser> {
  const executablePath = env.SESAME_CHROMIUM_BIN || '/usr/bin/chromium';
  if (!existsSync(executablePath)) {
    throw new Error(
      `browser tests need chromium, not found at ${executablePath}: run \`node scripts/tools/chromium.mjs\` (npm test does) and set SESAME_CHROMIUM_BIN to the path it prints`,
    );
  }
  return chromium.launch({ executablePath, headless: true, args: chromiumArgs });
}

/** Options of a harness context; `locale` and `extraHTTPHeaders` (e.g. X-Forwarded-For) are the usual ones. */
export type ContextOptions = BrowserContextOptions;

// A real browser's User-Agent rather than "HeadlessChrome", so the server's device parsing sees what a person's
// browser sends; the version is the one actually running.
const desktopAgent = (version: string) =>
  `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${version} Safari/537.36`;
const phoneAgent = (version: string) =>
  `Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${version} Mobile Safari/537.36`;

/** A desktop-sized context (1280×800, English unless `locale` says otherwise) whose pages checkPage can weigh. */
export async function desktopContext(browser: Browser, opts: ContextOptions = {}): Promise<BrowserContext> {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    locale: 'en-US',
    userAgent: desktopAgent(browser.version()),
    ...opts,
  });
  await trackTraffic(context);
  return context;
}

/** A phone: 412×915 CSS pixels at device scale 2, touch, a mobile Chrome User-Agent. */
export async function phoneContext(browser: Browser, opts: ContextOptions = {}): Promise<BrowserContext> {
  const context = await browser.newContext({
    viewport: { width: 412, height: 915 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    locale: 'en-US',
    userAgent: phoneAgent(browser.version()),
    ...opts,
  });
  await trackTraffic(context);
  return context;
}
