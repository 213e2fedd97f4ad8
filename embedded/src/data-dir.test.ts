import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it, jest } from '@jest/globals';
import { EmbeddedStore } from '@sesame/embedded-store';
import { tempEngines } from '@sesame/embedded-store/testing';
import { LauncherArgsError, parseLauncherArgs, resetData, storeChoice } from './data-dir';

const tempDir = tempEngines('data-dir').dir;

describe('npm start flags and environment: where the data lives', () => {
  const repo = '/repo';
  const choose = (argv: string[], env: Record<string, string | undefined> = {}) =>
    storeChoice(parseLauncherArgs(argv), env, repo, '/work');

  it('keeps its data in .sesame/data of the checkout by default', () => {
    assert.deepEqual(choose([]), { kind: 'embedded', dir: '/repo/.sesame/data' });
  });

  it('SESAME_DATA_DIR moves it (relative to the working directory), --data-dir wins over it', () => {
    assert.deepEqual(choose([], { SESAME_DATA_DIR: 'elsewhere' }), {
      kind: 'embedded',
      dir: '/work/elsewhere',
    });
    assert.deepEqual(choose([], { SESAME_DATA_DIR: '/srv/sesame' }), {
      kind: 'embedded',
      dir: '/srv/sesame',
    });
    assert.deepEqual(choose(['--data-dir', '/flag'], { SESAME_DATA_DIR: '/srv/sesame' }), {
      kind: 'embedded',
      dir: '/flag',
    });
  });

  it('--memory and SESAME_STORES=memory keep everything in memory', () => {
    assert.deepEqual(choose(['--memory']), { kind: 'memory' });
    assert.deepEqual(choose([], { SESAME_STORES: 'memory', SESAME_DATA_DIR: '/srv' }), { kind: 'memory' });
    assert.deepEqual(choose([], { SESAME_STORES: 'embedded' }), {
      kind: 'embedded',
      dir: '/repo/.sesame/data',
    });
  });

  it('refuses an unknown flag, a stray argument, an empty --data-dir, --memory with --data-dir, and an unknown SESAME_STORES', () => {
    for (const argv of [['--datadir', 'x'], ['fresh'], ['--data-dir', ' '], ['--memory', '--data-dir', '/x']])
      assert.throws(() => choose(argv), LauncherArgsError, argv.join(' '));
    assert.throws(() => choose([], { SESAME_STORES: 'redis' }), /SESAME_STORES/);
  });

  it('reads --fresh and --yes (and -y)', () => {
    assert.deepEqual(parseLauncherArgs(['--fresh', '-y']), {
      memory: false,
      fresh: true,
      yes: true,
      https: false,
    });
  });

  it('reads --https (and refuses --https=no: it is a flag)', () => {
    assert.equal(parseLauncherArgs(['--https']).https, true);
    assert.throws(() => parseLauncherArgs(['--https=no']), LauncherArgsError);
  });
});

describe('start fresh (npm start -- --fresh, npm run reset)', () => {
  const setUp = () => {
    const dir = tempDir();
    const dataDir = join(dir, 'data');
    const demoFile = join(dir, 'demo.json');
    EmbeddedStore.open({ dir: dataDir }).close();
    writeFileSync(demoFile, '{}');
    return { dataDir, demoFile };
  };

  it('asks first, and deletes the data directory and the demo file on yes', async () => {
    const { dataDir, demoFile } = setUp();
    const asked: string[] = [];
    const outcome = await resetData({
      dataDir,
      demoFile,
      yes: false,
      confirm: async (q) => {
        asked.push(q);
        return true;
      },
    });
    assert.equal(outcome, 'deleted');
    assert.equal(asked.length, 1);
    assert.match(asked[0]!, new RegExp(`Delete every tenant, person and log in ${dataDir}`));
    assert.equal(existsSync(dataDir), false);
    assert.equal(existsSync(demoFile), false);
  });

  it('deletes nothing when the answer is no', async () => {
    const { dataDir, demoFile } = setUp();
    assert.equal(await resetData({ dataDir, demoFile, yes: false, confirm: async () => false }), 'declined');
    assert.ok(existsSync(join(dataDir, 'sesame.db')));
    assert.ok(existsSync(demoFile));
  });

  it('without a terminal refuses unless --yes; with --yes deletes without asking', async () => {
    const { dataDir, demoFile } = setUp();
    await assert.rejects(resetData({ dataDir, demoFile, yes: false }), /no terminal to ask on: pass --yes/);
    assert.ok(existsSync(join(dataDir, 'sesame.db')));
    assert.equal(await resetData({ dataDir, demoFile, yes: true }), 'deleted');
    assert.equal(existsSync(dataDir), false);
  });

  it('refuses while a Sesame holds the store, even with --yes, and deletes nothing', async () => {
    const { dataDir, demoFile } = setUp();
    const held = EmbeddedStore.open({ dir: dataDir });
    try {
      await assert.rejects(
        resetData({ dataDir, demoFile, yes: true }),
        /cannot start fresh: the data directory .* is in use by another Sesame process/,
      );
      assert.ok(existsSync(join(dataDir, 'sesame.db')));
      assert.ok(existsSync(demoFile));
    } finally {
      held.close();
    }
  });

  it('refuses a directory that is not a Sesame data directory (a mistyped --data-dir), even with --yes', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'thesis.tex'), 'precious');
    await assert.rejects(
      resetData({ dataDir: dir, demoFile: join(dir, 'none.json'), yes: true }),
      /is not a Sesame data directory/,
    );
    assert.ok(existsSync(join(dir, 'thesis.tex')));
  });

  it('has nothing to do when neither exists', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'x'));
    assert.equal(
      await resetData({ dataDir: join(dir, 'data'), demoFile: join(dir, 'demo.json'), yes: false }),
      'nothing',
    );
  });
});

describe('npm run reset (its own process, no terminal)', () => {
  jest.setTimeout(30_000);
  const resetMain = fileURLToPath(new URL('./reset-main.ts', import.meta.url));
  const reset = (args: string[], env: Record<string, string>) =>
    spawnSync(process.execPath, ['--import', 'tsx', resetMain, ...args], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });

  it('refuses without --yes and deletes nothing; with --yes deletes SESAME_DATA_DIR and SESAME_DEMO_FILE', () => {
    const dir = tempDir();
    const env = { SESAME_DATA_DIR: join(dir, 'data'), SESAME_DEMO_FILE: join(dir, 'demo.json') };
    EmbeddedStore.open({ dir: env.SESAME_DATA_DIR }).close();
    writeFileSync(env.SESAME_DEMO_FILE, '{}');
    const refused = reset([], env);
    assert.equal(refused.status, 1, refused.stderr);
    assert.match(refused.stderr, /^sesame: starting fresh deletes .* pass --yes/);
    assert.ok(existsSync(join(env.SESAME_DATA_DIR, 'sesame.db')));
    const done = reset(['--yes'], env);
    assert.equal(done.status, 0, done.stderr);
    assert.match(done.stdout, /^Deleted /);
    assert.equal(existsSync(env.SESAME_DATA_DIR), false);
    assert.equal(existsSync(env.SESAME_DEMO_FILE), false);
  });
});
