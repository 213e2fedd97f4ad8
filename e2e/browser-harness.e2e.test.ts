// The real-browser harness every hosted-page test uses (@sesame/testing/browser), proved on tiny pages
// served here: Debian's chromium, axe-core, the byte budget, screenshots, a virtual passkey authenticator
// and reading a QR code off the screen. Needs no Redis, Kafka or Mongo.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import {
  type Browser,
  type BrowserContext,
  type Page,
  checkPage,
  desktopContext,
  launchBrowser,
  phoneContext,
  readQrFromScreenshot,
  virtualAuthenticator,
} from '@sesame/testing/browser';

import {
  type FixtureServer,
  bigScriptBytes,
  qrText,
  startFixtureServer,
  strictCsp,
} from './browser-fixtures';

let browser: Browser;
let context: BrowserContext;
let server: FixtureServer;

beforeAll(async () => {
  server = await startFixtureServer();
  browser = await launchBrowser();
  context = await desktopContext(browser);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function open(path: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${server.origin}${path}`);
  return page;
}

const failure = async (run: Promise<unknown>): Promise<string> => {
  const error = await run.then(
    () => undefined,
    (e: Error) => e,
  );
  assert.ok(error instanceof Error, 'checkPage should have thrown');
  return error.message;
};

describe('checkPage', () => {
  it('passes a clean page found by its accessible names, weighing its HTML and CSS', async () => {
    const page = await open('/clean');
    await page.getByLabel('Email address').fill('ada@example.com');
    assert.equal(await page.getByRole('button', { name: 'Continue' }).count(), 1);
    const result = await checkPage(page, 'harness clean');
    assert.deepEqual(result.transfers.map((t) => new URL(t.url).pathname).sort(), ['/clean', '/style.css']);
    assert.ok(result.bytes > 500 && result.bytes < 5_000, `clean page weighs ${result.bytes} bytes`);
    assert.deepEqual(
      result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical'),
      [],
    );
  });

  it('writes the full-page screenshot as a PNG under .sesame/artifacts/screenshots, the name sanitised', async () => {
    const page = await open('/clean');
    const { screenshot } = await checkPage(page, 'harness/clean page?');
    assert.match(screenshot, /\.sesame\/artifacts\/screenshots\/harness-clean-page-\.png$/);
    const png = await readFile(screenshot);
    assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    assert.equal(png.readUInt32BE(16), 1280, 'width of a desktop page');
  });

  it('fails a page with an unlabelled input and a nameless image button, naming rule, impact and target', async () => {
    const message = await failure(checkPage(await open('/unlabelled'), 'harness unlabelled'));
    assert.match(message, /label \(critical\): .* at input\[type="email"\]/);
    assert.match(message, /input-image-alt \(critical\): .* at input\[type="image"\]/);
  });

  it('fails a page over budget, listing its biggest resource first', async () => {
    const message = await failure(checkPage(await open('/heavy'), 'harness heavy'));
    assert.match(
      message,
      /bytes transferred, budget 100000; largest first:\n {2}(\d+) B script http:\/\/localhost:\d+\/big\.js\n/,
    );
    const bytes = Number(/ (\d+) B script/.exec(message)?.[1]);
    assert.ok(bytes > bigScriptBytes, `big.js weighed ${bytes} bytes with its headers`);
  });

  it('leaves resources matching excludeUrl out of the budget', async () => {
    const result = await checkPage(await open('/heavy'), 'harness heavy excluded', {
      excludeUrl: /\/big\.js$/,
    });
    assert.ok(result.bytes < 5_000, `without big.js the page weighs ${result.bytes} bytes`);
    assert.equal(
      result.transfers.some((t) => t.url.endsWith('/big.js')),
      false,
    );
  });

  it('checks a page whose CSP allows only its own script files', async () => {
    const page = await open('/csp');
    const response = await page.reload();
    assert.equal(response?.headers()['content-security-policy'], strictCsp);
    await page.waitForLoadState('load');
    assert.equal(await page.locator('#inline-ran').textContent(), 'no', 'the CSP refused the inline script');
    assert.equal(await page.getAttribute('html', 'data-app'), 'ran', 'the page script from self ran');
    const result = await checkPage(page, 'harness strict csp');
    // The page's one finding (a skipped heading level, moderate) shows axe-core really ran under the CSP.
    assert.deepEqual(
      result.violations.map((v) => `${v.id} ${v.impact}`),
      ['heading-order moderate'],
    );
    assert.equal(
      result.transfers.some((t) => t.url.endsWith('/app.js')),
      true,
    );
  });

  it('weighs a cold load: a stylesheet the previous page fetched counts again', async () => {
    const page = await open('/clean');
    await page.goto(`${server.origin}/csp`);
    const result = await checkPage(page, 'harness second page');
    assert.equal(
      result.transfers.some((t) => t.url.endsWith('/style.css') && t.bytes > 0),
      true,
    );
  });
});

describe('browser contexts', () => {
  it('launchBrowser says where chromium was looked for when it is missing', async () => {
    await assert.rejects(
      launchBrowser({ SESAME_CHROMIUM_BIN: '/nonexistent/chromium' }),
      /not found at \/nonexistent\/chromium/,
    );
  });

  it('phoneContext is a phone-sized touch screen with a mobile User-Agent, locale and extra headers', async () => {
    const phone = await phoneContext(browser, {
      locale: 'de-DE',
      extraHTTPHeaders: { 'X-Forwarded-For': '198.51.100.7' },
    });
    const page = await phone.newPage();
    await page.goto(`${server.origin}/clean`);
    const seen = await page.evaluate(
      '({ w: innerWidth, dpr: devicePixelRatio, touch: navigator.maxTouchPoints, lang: navigator.language, ua: navigator.userAgent })',
    );
    assert.deepEqual(
      { ...(seen as object), ua: undefined },
      { w: 412, dpr: 2, touch: 1, lang: 'de-DE', ua: undefined },
    );
    assert.match((seen as { ua: string }).ua, /Android .* Mobile Safari/);
    const headers = server.seen.get('/clean');
    assert.equal(headers?.['x-forwarded-for'], '198.51.100.7');
    assert.match(headers?.['accept-language'] ?? '', /^de-DE/);
    await checkPage(page, 'harness phone clean');
    await phone.close();
  });
});

describe('virtualAuthenticator', () => {
  it('registers a discoverable credential and signs in with it through navigator.credentials', async () => {
    const page = await open('/passkey');
    const authenticator = await virtualAuthenticator(page);
    await page.getByRole('button', { name: 'Create a passkey' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /^created / })
      .waitFor();
    const [credential, ...others] = await authenticator.credentials();
    assert.equal(others.length, 0);
    assert.equal(credential?.isResidentCredential, true);
    assert.equal(credential?.rpId, 'localhost');
    const id = credential!.credentialId.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    assert.equal(await page.getByRole('status').textContent(), `created ${id}`);

    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /^signed in / })
      .waitFor();
    assert.equal(await page.getByRole('status').textContent(), `signed in ${id} as user-1`);
    const [used] = await authenticator.credentials();
    assert.ok((used?.signCount ?? 0) > credential!.signCount, 'the assertion was counted');
  });
});

describe('readQrFromScreenshot', () => {
  it('reads the text of a QR code shown on the page', async () => {
    const page = await open('/qr');
    assert.equal(
      await readQrFromScreenshot(page, page.getByRole('img', { name: 'Sign-in QR code' })),
      qrText,
    );
  });

  it('says so when the element shows no QR code', async () => {
    const page = await open('/clean');
    await assert.rejects(readQrFromScreenshot(page, 'h1'), /no QR code could be read/);
  });
});
