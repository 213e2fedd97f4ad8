import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it, jest } from '@jest/globals';
import { eventually, repoRoot } from '@sesame/testing';
import { freshEmail, mailedCode } from './hosted-signin-support';
import { HttpBrowser, emailCodeSignIn } from './http-signin';
import { type RealPlatform, startRealPlatform } from './token-fixtures';

jest.setTimeout(300_000);

/** The zone the CLI runs in here: not UTC, so a local time is told apart from the ISO one. */
const ZONE = 'Asia/Tokyo';
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const WRONG_CODES = 'Wrong code entered 5 times; the code was invalidated';
const SIGNED_IN = 'Signed in with an email code';

type Flow = { id: string; timestamp: number; time: string; status: string; outcome: string };

/** "2026-01-01 19:00:00": epoch ms in ZONE, as the CLI prints local times. */
const zoned = (ms: number) =>
  new Intl.DateTimeFormat('sv-SE', {
    timeZone: ZONE,
    dateStyle: 'short',
    timeStyle: 'medium',
    hourCycle: 'h23',
  }).format(new Date(ms));

/**
 * `npm run sesame -- logs` against the running embedded platform (six services in one process on the real
 * servers): a person signs in by email code, then types five wrong codes; `logs --email` and `logs show`
 * answer what happened, in words, through the CLI's own entry (node --import tsx cli/src/main.ts).
 */
describe('CLI logs on the running embedded platform', () => {
  let env: RealPlatform;
  const email = freshEmail('cli-logs');
  let signedInFlow = '';
  let failedFlow = '';

  const sesame = (...args: string[]) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        [
          '--import',
          'tsx',
          join(repoRoot, 'cli/src/main.ts'),
          ...args,
          '--url',
          env.platform.url,
          '--tenant',
          env.demo.tenantId,
        ],
        {
          cwd: repoRoot,
          env: { PATH: process.env.PATH ?? '', TZ: ZONE, SESAME_ADMIN_KEY: env.platform.adminKey },
          timeout: 30_000,
        },
        (err, stdout, stderr) =>
          resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
    });

  /** A new flow over plain HTTP: the email step, then five wrong codes. Returns the flow's id. */
  async function fiveWrongCodes(): Promise<string> {
    const browser = new HttpBrowser(env.platform.url);
    const authorize = await browser.request(
      `/authorize?${new URLSearchParams({
        client_id: env.demo.clientId,
        redirect_uri: env.demo.redirectUri,
        response_type: 'code',
        scope: 'openid email',
        state: randomBytes(16).toString('base64url'),
        nonce: randomBytes(16).toString('base64url'),
        code_challenge: createHash('sha256').update(randomBytes(32)).digest('base64url'),
        code_challenge_method: 'S256',
      })}`,
    );
    assert.equal(authorize.status, 200, authorize.body.slice(0, 300));
    const csrf = /name="csrf" value="([^"]+)"/.exec(authorize.body)?.[1] ?? '';
    const action = /<form method="post" action="([^"]+)"/.exec(authorize.body)?.[1] ?? '';
    const flowPath = /^\/flow\/[\w-]+/.exec(action)?.[0];
    assert.ok(csrf && flowPath, 'the identify page has a form with a CSRF token');
    const sentAfter = new Date();
    const sent = await browser.request(action, { csrf, email });
    assert.equal(sent.status, 303, sent.body.slice(0, 300));
    const code = await mailedCode(email, sentAfter);
    const wrong = code === '000000' ? '111111' : '000000';
    let last = '';
    for (let i = 0; i < 5; i++) {
      const answer = await browser.request(`${flowPath}/code`, { csrf, code: wrong });
      assert.equal(answer.status, 400);
      last = answer.body;
    }
    assert.match(last, /Too many attempts\. Request a new code\./);
    return flowPath.slice('/flow/'.length);
  }

  beforeAll(async () => {
    env = await startRealPlatform('support-cli', { smtp: true, env: { SESAME_MAILS_PER_IP: '100000' } });
    const signIn = await emailCodeSignIn({
      authUrl: env.platform.url,
      clientId: env.demo.clientId,
      redirectUri: env.demo.redirectUri,
      email,
    });
    signedInFlow = signIn.flowId;
    failedFlow = await fiveWrongCodes();
  });
  afterAll(async () => {
    await env?.stop();
  });

  it('logs --email --json: both sign-ins newest first, outcomes in words, ISO times', async () => {
    // The records arrive through Kafka: ask until both are there, the failed one with its fifth wrong code.
    const answer = await eventually(
      async () => {
        const r = await sesame('logs', '--email', email, '--json');
        assert.equal(r.code, 0, r.stderr);
        return JSON.parse(r.stdout) as { userId: string; email: string; flows: Flow[] };
      },
      (a) => a.flows.length >= 2 && a.flows[0]!.outcome === WRONG_CODES,
      30_000,
      500,
    );
    assert.equal(answer.email, email);
    assert.deepEqual(
      answer.flows.map((f) => [f.id, f.status, f.outcome]),
      [
        [failedFlow, 'failure', WRONG_CODES],
        [signedInFlow, 'success', SIGNED_IN],
      ],
    );
    for (const f of answer.flows) {
      assert.match(f.time, ISO);
      assert.equal(f.time, new Date(f.timestamp).toISOString());
    }
    const failedOnly = await sesame('logs', '--email', email, '--status', 'failure', '--json');
    assert.deepEqual(
      (JSON.parse(failedOnly.stdout) as { flows: Flow[] }).flows.map((f) => f.id),
      [failedFlow],
    );
  });

  it('logs --email prints a table in local time (any case of the address), newest first', async () => {
    const json = JSON.parse((await sesame('logs', '--email', email, '--json')).stdout) as {
      userId: string;
      flows: Flow[];
    };
    const r = await sesame('logs', '--email', email.toUpperCase());
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.trimEnd().split('\n');
    assert.equal(lines[0], `Sign-ins of ${email} (${json.userId}), newest first, local time:`);
    assert.match(lines[1]!, /^WHEN\s+FLOW\s+APP\s+METHOD\s+STATUS\s+DEVICE\s+LOCATION\s+OUTCOME$/);
    assert.equal(lines.length, 4);
    const [failed, signedIn] = json.flows;
    assert.ok(lines[2]!.startsWith(`${zoned(failed!.timestamp)}  ${failedFlow} `), lines[2]);
    assert.ok(lines[2]!.endsWith(WRONG_CODES), lines[2]);
    assert.ok(lines[3]!.startsWith(`${zoned(signedIn!.timestamp)}  ${signedInFlow} `), lines[3]);
    assert.ok(lines[3]!.endsWith(SIGNED_IN), lines[3]);
  });

  it('logs show FLOW_ID prints the failed sign-in as a timeline in words; --json has ISO times', async () => {
    const r = await sesame('logs', 'show', failedFlow);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, new RegExp(`^Sign-in ${failedFlow}: ${WRONG_CODES}$`, 'm'));
    assert.match(r.stdout, new RegExp(`^ {2}person: {3}${email.replace(/[.+]/g, '\\$&')}$`, 'm'));
    assert.match(r.stdout, /desktop_login_page\s+Saw the sign-in page \(the email step\)\./);
    assert.equal(
      [...r.stdout.matchAll(/email_verification_failure\s+Entered a wrong or expired email code\./g)].length,
      5,
    );

    const json = JSON.parse((await sesame('logs', 'show', failedFlow, '--json')).stdout) as {
      flow: Flow;
      timeline: { timestamp: number; time: string; action: string }[];
    };
    assert.equal(json.flow.id, failedFlow);
    assert.equal(json.flow.outcome, WRONG_CODES);
    assert.match(json.flow.time, ISO);
    assert.equal(json.timeline.filter((e) => e.action === 'email_verification_failure').length, 5);
    for (const e of json.timeline) assert.equal(e.time, new Date(e.timestamp).toISOString());
    assert.ok(r.stdout.includes(`(${json.flow.time})`), 'the text shows the ISO time beside the local one');
  });

  it('an unknown flow id: exit 1 with the reason on stderr; an address with no account: its attempts, none', async () => {
    const r = await sesame('logs', 'show', 'no-such-flow');
    assert.equal(r.code, 1);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /flow_not_found/);
    // An address with no account is not an error since issue 38: its sign-in attempts (here none) are listed.
    const address = freshEmail('cli-logs-nobody');
    const nobody = await sesame('logs', '--email', address);
    assert.equal(nobody.code, 0, nobody.stderr);
    assert.ok(
      nobody.stdout.includes(`No account has ${address}, and no sign-in attempt with it matches.`),
      nobody.stdout,
    );
  });
});
