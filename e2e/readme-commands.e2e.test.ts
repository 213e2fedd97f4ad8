import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it, jest } from '@jest/globals';
import { eventually } from '@sesame/testing';
import { commandsOf, repoRoot, shBlocks } from '../scripts/docs/markdown';

/**
 * Issue 39: every command of the README runs, as a newcomer would run it on a fresh checkout. The blocks
 * marked `<!-- readme-test: long-running -->` (`npm start`, `npm run example`) are started as this test's own
 * processes, on a temp data directory and ports the OS picks; then every other ```sh block runs in bash from
 * the checkout, with `localhost:8080`, `localhost:3000` and `.sesame/demo.json` pointing at them. A command
 * must exit 0, and a curl must get a successful, non-empty answer.
 */
jest.setTimeout(300_000);

const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
const blocks = shBlocks(readme);
const tmp = mkdtempSync(join(tmpdir(), 'sesame-readme-'));
const demoFile = join(tmp, 'demo.json');

const baseEnv = (): Record<string, string | undefined> => {
  const env: Record<string, string | undefined> = { ...process.env, LOG_LEVEL: 'warn' };
  // The README's platform is npm start's embedded default as a newcomer gets it: none of this run's settings
  // (its test servers, its SMTP sink — with SESAME_SMTP_URL set there is no /dev/mail outbox).
  for (const v of Object.keys(env)) if (v.startsWith('SESAME_')) delete env[v];
  return env;
};

interface Started {
  child: ChildProcess;
  url: string;
  output(): string;
}

/**
 * Signals a started command's process group; a group already gone (ESRCH) is what was wanted. Throwing there
 * once hid why a start had failed (the cleanup's error replaced the start's).
 */
function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ESRCH') throw err;
  }
}

/** Starts `command` (its own process group) and resolves with the URL its `ready` line names. */
async function startProcess(
  args: string[],
  env: Record<string, string | undefined>,
  ready: RegExp,
): Promise<Started> {
  let out = '';
  const child = spawn('npm', args, { cwd: repoRoot, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const collect = (d: Buffer) => {
    out += d;
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const url = await eventually(
    async () => ready.exec(out)?.[1] ?? (child.exitCode !== null ? 'exited' : undefined),
    Boolean,
    240_000,
    200,
  );
  assert.ok(url && url !== 'exited', `npm ${args.join(' ')} did not come up:\n${out}`);
  return { child, url, output: () => out };
}

/** The long-running commands the README may name, and how this test starts each. */
const longRunning: Record<string, () => Promise<Started>> = {
  'npm start': () =>
    startProcess(
      ['start'],
      { ...baseEnv(), PORT: '0', SESAME_DEMO_FILE: demoFile, SESAME_DATA_DIR: join(tmp, 'data') },
      /Sesame is running on (http:\/\/localhost:\d+)/,
    ),
  'npm run example': () =>
    startProcess(
      ['run', 'example'],
      { ...baseEnv(), PORT: '0', SESAME_EXAMPLE_DEMO_FILE: demoFile },
      /Sesame sample app on (http:\/\/\S+)/,
    ),
};

// A curl of the README must get an answer: HTTP 2xx/3xx and a body.
const prelude = [
  'set -euo pipefail',
  'curl() {',
  '  local out',
  '  out=$(command curl --fail --show-error "$@") || return 1',
  '  [ -n "$out" ] || { echo "no answer: curl $*" >&2; return 1; }',
  '  printf "%s\\n" "$out"',
  '}',
].join('\n');

describe('the README commands', () => {
  const started = new Map<string, Started>();
  let platform = '';
  let example = '';

  /** A README command as it runs here: on this test's ports and demo file. */
  const localize = (text: string) =>
    text
      .replaceAll('http://localhost:8080', platform)
      .replaceAll('localhost:8080', platform.replace('http://', ''))
      .replaceAll('http://localhost:3000', example)
      .replaceAll('localhost:3000', example.replace('http://', ''))
      .replace(/(\.\/)?\.sesame\/demo\.json/g, demoFile);

  beforeAll(async () => {
    for (const block of blocks.filter((b) => b.longRunning)) {
      for (const command of commandsOf(block.script)) {
        const start = longRunning[command];
        assert.ok(start, `README line ${block.line}: no way to start the long-running \`${command}\``);
        started.set(command, await start());
      }
    }
    platform = started.get('npm start')?.url ?? '';
    example = started.get('npm run example')?.url?.replace(/\/$/, '') ?? '';
  });

  afterAll(async () => {
    for (const { child } of [...started.values()].reverse()) {
      const gone = () => child.exitCode !== null || child.signalCode !== null;
      if (gone() || child.pid === undefined) continue;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      signalGroup(child.pid, 'SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000).unref())]);
      // A process that died of the SIGTERM has no exit code (signalCode instead): only a live one is killed.
      if (!gone()) signalGroup(child.pid, 'SIGKILL');
      child.stdout?.destroy();
      child.stderr?.destroy();
    }
  });

  it('starts the platform and the sample app as the quick start says', () => {
    assert.ok(blocks.some((b) => b.longRunning && commandsOf(b.script).includes('npm start')));
    assert.match(platform, /^http:\/\/localhost:\d+$/);
    assert.match(example, /^http:\/\/localhost:\d+$/);
  });

  it('every http://localhost page the README says to open answers 200', async () => {
    const pages = [
      ...new Set([...readme.matchAll(/<(http:\/\/localhost:\d+[^>]*)>/g)].map((m) => m[1] as string)),
    ];
    assert.ok(pages.length >= 3, `too few pages: ${pages.join(', ')}`);
    for (const page of pages) {
      const res = await fetch(localize(page));
      await res.arrayBuffer();
      assert.equal(res.status, 200, `${page} (${localize(page)})`);
    }
    // The sample app's home page offers the sign-in the quick start ends in.
    assert.match(await (await fetch(example)).text(), /Sign in/);
  });

  const runnable = blocks.filter((b) => !b.longRunning);
  it('has a few short blocks to run', () => {
    assert.ok(runnable.length >= 1 && runnable.length <= 4, `${runnable.length} blocks`);
  });

  for (const block of runnable) {
    it(`the sh block at README line ${block.line} runs and exits 0`, () => {
      const script = localize(block.script);
      const run = spawnSync('bash', ['-c', `${prelude}\n${script}`], {
        cwd: repoRoot,
        env: { ...baseEnv(), SESAME_DEMO_FILE: demoFile, SESAME_ADMIN_URL: platform },
        encoding: 'utf8',
        timeout: 60_000,
      });
      assert.equal(run.status, 0, `${script}\nstdout: ${run.stdout}\nstderr: ${run.stderr}`);
      assert.ok(run.stdout.trim().length > 0, `no output from:\n${script}`);
    });
  }
});
