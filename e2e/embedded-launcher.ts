// `npm start`'s launcher (embedded/src/main.ts) as a child process on a data directory, for the tests that
// stop it (SIGTERM), crash it (SIGKILL) and start it again on the same store (issue 36), and the development
// outbox it serves at /dev/mail.json (sign-in codes, invitation links).
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventually, repoRoot, sleep } from '@sesame/testing';

export interface DemoFile {
  tenantId: string;
  appId: string;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  credentialsId: string;
  apiSecret: string;
  ownerEmail: string;
  adminKey: string;
  /** This start's URL (absent in a demo file an older Sesame wrote). */
  issuer?: string;
}

export interface RunningLauncher {
  child: ChildProcess;
  url: string;
  /** Everything it printed so far. */
  output(): string;
  /** SIGTERM; resolves with the exit code. */
  stop(): Promise<number | null>;
  /** kill -9; resolves once it is gone. */
  crash(): Promise<void>;
}

/** Starts the launcher on `dataDir` (its demo file beside it); resolves once it printed its banner. */
export async function startLauncher(opts: {
  dataDir: string;
  demoFile: string;
  adminKey: string;
  /** The port to serve on (a restart keeps the issuer and the RP's origin); default one the OS picks. */
  port?: number;
  args?: string[];
  /** More of the services' variables (limits lifted for a load run, ...). */
  env?: Record<string, string>;
  timeoutMs?: number;
}): Promise<RunningLauncher> {
  const env: Record<string, string | undefined> = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    PORT: String(opts.port ?? 0), // 0: the OS picks the port and the launcher prints it
    LOG_LEVEL: 'warn',
    SESAME_ENV: 'development',
    SESAME_DEMO_FILE: opts.demoFile,
    SESAME_ADMIN_KEY: opts.adminKey,
    ...opts.env,
  };
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(repoRoot, 'embedded/src/main.ts'),
      // --memory (a check that a test fails when nothing is kept) takes no data directory.
      ...(opts.args?.includes('--memory') ? [] : ['--data-dir', opts.dataDir]),
      ...(opts.args ?? []),
    ],
    { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  const collect = (d: Buffer) => {
    out += d;
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const ready = await eventually(
    async () => /Sesame is running on/.test(out) || child.exitCode !== null,
    Boolean,
    opts.timeoutMs ?? 120_000,
    100,
  );
  const [, scheme, portText] = /Sesame is running on (https?):\/\/localhost:(\d+)/.exec(out) ?? [];
  const port = Number(portText);
  if (!ready || !(port > 0)) {
    child.kill('SIGKILL');
    assert.fail(`the launcher did not come up:\n${out.slice(-4000)}`);
  }
  return {
    child,
    url: `${scheme}://localhost:${port}`,
    output: () => out,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
    crash: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

export const readDemo = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as DemoFile;

interface DevMail {
  to: string;
  subject: string;
  text: string;
  sentAt: string;
}

/** The newest development-outbox mail to `to` sent at or after `after`, once it is there. */
export async function devMail(
  url: string,
  to: string,
  after: Date,
  timeoutMs = 15_000,
  fetchFn: (url: string) => Promise<Response> = fetch,
): Promise<DevMail> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const res = await fetchFn(`${url}/dev/mail.json?${new URLSearchParams({ to })}`);
    const { messages } = (await res.json()) as { messages: DevMail[] };
    // Newest first.
    const found = messages.find((m) => Date.parse(m.sentAt) >= after.getTime());
    if (found) return found;
    await sleep(50);
  }
  throw new Error(`no mail to ${to} in the development outbox of ${url}`);
}

/** A `codeFor` for emailCodeSignIn: the 6-digit code of the newest outbox mail. */
export const devMailCode =
  (url: string, fetchFn?: (url: string) => Promise<Response>) => async (to: string, after: Date) => {
    const mail = await devMail(url, to, after, 15_000, fetchFn);
    const code = /\b(\d{6})\b/.exec(mail.text)?.[1];
    if (!code) throw new Error(`no 6-digit code in the mail "${mail.subject}"`);
    return code;
  };
