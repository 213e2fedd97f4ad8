import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it, jest } from '@jest/globals';
import { eventually, repoRoot } from '@sesame/testing';
import { freshEmail, mailedCode, mailedLink } from './hosted-signin-support';
import { type HttpAnswer, HttpBrowser } from './http-signin';

jest.setTimeout(240_000);

const csrfOf = (html: string) => /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';
const formActionOf = (html: string) => /<form method="post" action="([^"]+)"/.exec(html)?.[1] ?? '';

/** Follows redirects (GET) until a page answers; the cookie jar goes along. */
async function follow(browser: HttpBrowser, first: HttpAnswer): Promise<HttpAnswer> {
  let answer = first;
  for (let hops = 0; answer.status >= 301 && answer.status <= 303 && hops < 10; hops++) {
    answer = await browser.request(answer.location);
  }
  return answer;
}

/**
 * Issue #35, item 1: with SMTP configured, the sign-in code must not be readable from the logs. The platform
 * as `npm start` runs it (all six services in one process) but with SMTP to the tests' server and every log
 * line written (LOG_LEVEL=trace); an Owner signs in to the console over HTTP, once with the mailed code and
 * once with the mailed magic link, and no line the process wrote contains the code, the link or its token.
 */
describe('the console sign-in leaves no code, link or token in any log line', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sesame-signin-logs-'));
  const demoFile = join(dir, 'demo.json');
  let out = '';
  let child: ChildProcess;
  let base = '';

  beforeAll(async () => {
    const smtpUrl = process.env.SESAME_SMTP_URL;
    if (!smtpUrl) throw new Error('SESAME_SMTP_URL not set: this test needs the test SMTP server');
    const env: Record<string, string | undefined> = {
      ...process.env,
      PORT: '0',
      SESAME_DEMO_FILE: demoFile,
      SESAME_DATA_DIR: join(dir, 'data'),
      LOG_LEVEL: 'trace',
      SESAME_SMTP_URL: smtpUrl,
      // every sign-in of the tests comes from 127.0.0.1
      SESAME_MAILS_PER_IP: '100000',
    };
    for (const v of ['SESAME_REDIS_URL', 'SESAME_KAFKA_BROKERS', 'SESAME_MONGO_URL']) delete env[v];
    child = spawn(process.execPath, ['--import', 'tsx', join(repoRoot, 'embedded/src/main.ts')], {
      cwd: repoRoot,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const collect = (d: Buffer) => {
      out += d;
    };
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
    const ready = await eventually(async () => /Sesame is running/.test(out), Boolean, 180_000, 200);
    assert.ok(ready, `the platform did not come up:\n${out.slice(-3000)}`);
    base = `http://127.0.0.1:${/Sesame is running on http:\/\/localhost:(\d+)/.exec(out)?.[1]}`;
  });
  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 20_000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    rmSync(dir, { recursive: true, force: true });
  });

  /** A new Owner of the demo tenant (the seeded one's address is shared by every run on the SMTP server). */
  async function newOwner(): Promise<string> {
    const demo = JSON.parse(readFileSync(demoFile, 'utf8')) as { adminKey: string; tenantId: string };
    const email = freshEmail('logs-owner');
    const res = await fetch(`${base}/api/v1/admin/tenants/${demo.tenantId}/administrators`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${demo.adminKey}` },
      body: JSON.stringify({ email, role: 'owner' }),
    });
    assert.equal(res.status, 201, await res.text());
    return email;
  }

  /** From the console's sign-in to the hosted identify page, then the email: the flow's path and CSRF token. */
  async function identify(browser: HttpBrowser, email: string) {
    const page = await follow(browser, await browser.request('/console/signin?return=%2Fconsole%2F'));
    assert.equal(page.status, 200, `the identify page: ${page.status} ${page.body.slice(0, 300)}`);
    const csrf = csrfOf(page.body);
    const flowPath = /^\/flow\/[\w-]+/.exec(formActionOf(page.body))?.[0];
    assert.ok(csrf && flowPath, 'the identify page has a form with a CSRF token');
    const sent = await browser.request(formActionOf(page.body), { csrf, email });
    assert.deepEqual([sent.status, sent.location], [303, flowPath], sent.body.slice(0, 300));
    return { csrf, flowPath };
  }

  /** After the proof: consent when asked, then the console's callback, then the console itself. */
  async function intoConsole(browser: HttpBrowser, continued: HttpAnswer): Promise<void> {
    let done = await follow(browser, continued);
    if (done.status === 200 && />Approve</.test(done.body)) {
      const flowPath = /^\/flow\/[\w-]+/.exec(formActionOf(done.body))?.[0];
      done = await follow(
        browser,
        await browser.request(`${flowPath}/consent`, { csrf: csrfOf(done.body), decision: 'approve' }),
      );
    }
    assert.equal(done.status, 200, `the console: ${done.status} ${done.body.slice(0, 300)}`);
    assert.match(done.body, /<nav class="console-nav"/, 'signed in: the console navigation');
  }

  function assertNotLogged(secrets: string[]) {
    const lines = out.split('\n').filter(Boolean);
    assert.ok(lines.some((l) => l.includes('"level":"trace"') || l.includes('"level":"debug"')));
    for (const secret of secrets) {
      const found = lines.filter((l) => l.includes(secret));
      assert.deepEqual(found, [], `log lines contain ${secret}`);
    }
  }

  it('with the mailed code: signed in, and no log line carries the code (nor the mail subject that names it)', async () => {
    const email = await newOwner();
    const browser = new HttpBrowser(base);
    const sentAfter = new Date();
    const { csrf, flowPath } = await identify(browser, email);
    const code = await mailedCode(email, sentAfter);
    const verified = await browser.request(`${flowPath}/code`, { csrf, code });
    assert.deepEqual([verified.status, verified.location], [303, `${flowPath}/continue`]);
    await intoConsole(browser, verified);
    assertNotLogged([code, email]);
    const sentLine = out.split('\n').find((l) => l.includes('"msg":"mail sent"'));
    assert.match(sentLine ?? '', /"kind":"sign-in-code"/, 'the mail is logged by its kind');
  });

  it('with the mailed magic link: signed in, and no log line carries the link or its token', async () => {
    const email = await newOwner();
    const browser = new HttpBrowser(base);
    const { csrf, flowPath } = await identify(browser, email);
    const askedAfter = new Date();
    const asked = await browser.request(`${flowPath}/magic-link`, { csrf });
    assert.deepEqual([asked.status, asked.location], [303, flowPath], asked.body.slice(0, 300));
    const link = new URL(await mailedLink(email, askedAfter));
    const token = link.pathname.split('/').at(-1)!;
    const confirm = await browser.request(link.pathname);
    assert.equal(confirm.status, 200, confirm.body.slice(0, 300));
    const confirmed = await browser.request(link.pathname, { csrf: csrfOf(confirm.body) });
    assert.deepEqual([confirmed.status, confirmed.location], [303, `${flowPath}/continue`]);
    await intoConsole(browser, confirmed);
    assertNotLogged([token, link.href, email]);
    assert.match(out, /"path":"\/link\/\[redacted\]"/, 'the request log line of the link page, scrubbed');
  });
});
