import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it, jest } from '@jest/globals';
import { EmbeddedStore } from '@sesame/embedded-store';
import { tempEngines } from '@sesame/embedded-store/testing';
import { clientCredentialsToken } from '@sesame/testing';
import { type Embedded, startEmbedded } from './index';
import { BACKUP_PATH, LAUNCHER_COMPONENT } from './store-files';

/** Issue 36: `npm start` keeps its data in one durable engine in a data directory. */
jest.setTimeout(60_000);
const env = { LOG_LEVEL: 'silent', SESAME_ENV: 'development' };
const tempDir = tempEngines('launcher').dir;

type Jwk = { kid: string; alg?: string; kty: string };
const jwks = async (e: Embedded) => ((await (await fetch(`${e.url}/jwks`)).json()) as { keys: Jwk[] }).keys;

describe('startEmbedded with a data directory', () => {
  it('gives every service the engine: what the services keep in their KV (an access token) is on disk, and a restart keeps it', async () => {
    const dataDir = join(tempDir(), 'data');
    const first = await startEmbedded({ port: 0, env, seedDemo: true, dataDir });
    let token: string;
    try {
      const demo = first.demo!;
      token = await clientCredentialsToken(`${first.url}/token`, demo.credentialsId, demo.apiSecret);
    } finally {
      await first.stop();
    }
    assert.ok(token.length > 0);
    // Read from the files, by another connection, once the platform has closed the engine.
    const entries = () => {
      const store = EmbeddedStore.open({ dir: dataDir });
      try {
        const rows = store.db
          .prepare<[], { ns: string; key: string }>('SELECT ns, key FROM kv_entries')
          .all();
        return Array.from(rows, (r) => `${r.ns}${r.key}`).sort();
      } finally {
        store.close();
      }
    };
    const before = entries();
    assert.ok(
      before.some((k) => k.startsWith('sesame:token:')),
      `token service entries on disk: ${before.join(', ')}`,
    );
    const second = await startEmbedded({ port: 0, env, dataDir });
    await second.stop();
    assert.deepEqual(entries(), before);
  });

  it('records the launcher’s store format, and closes the engine at stop (the directory opens again)', async () => {
    const dataDir = join(tempDir(), 'data');
    const embedded = await startEmbedded({ port: 0, env, dataDir });
    assert.equal(embedded.store?.versionOf(LAUNCHER_COMPONENT), 1);
    await embedded.stop();
    const again = EmbeddedStore.open({ dir: dataDir });
    try {
      assert.equal(again.versionOf(LAUNCHER_COMPONENT), 1);
    } finally {
      again.close();
    }
  });

  it('refuses to start on a store written by a newer Sesame, with the engine’s message', async () => {
    const dataDir = join(tempDir(), 'data');
    const store = EmbeddedStore.open({ dir: dataDir });
    store.db.exec(`INSERT INTO schema_versions (component, version) VALUES ('${LAUNCHER_COMPONENT}', 99)`);
    store.close();
    await assert.rejects(startEmbedded({ port: 0, env, dataDir }), /written by a newer Sesame/);
  });

  it('without a data directory (the library default) keeps nothing on disk', async () => {
    const embedded = await startEmbedded({ port: 0, env });
    try {
      assert.equal(embedded.store, undefined);
    } finally {
      await embedded.stop();
    }
  });
});

const main = fileURLToPath(new URL('./main.ts', import.meta.url));
/** `npm start`'s launcher as its own process: resolves with its exit code and what it printed. */
function launch(args: string[], extraEnv: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', main, ...args], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: '0', LOG_LEVEL: 'warn', ...extraEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => {
    out += d;
  });
  child.stderr.on('data', (d) => {
    out += d;
  });
  return new Promise<{ code: number | null; out: string }>((resolve) =>
    child.on('exit', (code) => resolve({ code, out })),
  );
}

describe('npm start: a second process on the same data directory', () => {
  it('exits at once, non-zero, with the engine’s clear message and no stack trace', async () => {
    const dir = tempDir();
    const dataDir = join(dir, 'data');
    const running = await startEmbedded({ port: 0, env, dataDir });
    try {
      const second = await launch(['--data-dir', dataDir], { SESAME_DEMO_FILE: join(dir, 'demo.json') });
      assert.equal(second.code, 1, second.out);
      assert.match(
        second.out,
        /^sesame: the data directory .* is in use by another Sesame process \(pid \d+\)/m,
      );
      assert.doesNotMatch(second.out, /\n\s+at /, 'no stack trace');
      assert.doesNotMatch(second.out, /Sesame is running/);
      assert.equal(existsSync(join(dir, 'demo.json')), false, 'wrote no demo file');
      // The running one is untouched.
      assert.equal((await fetch(`${running.url}/readyz`)).status, 200);
    } finally {
      await running.stop();
    }
  });

  it('--fresh without a terminal and without --yes refuses, and deletes nothing', async () => {
    const dir = tempDir();
    const dataDir = join(dir, 'data');
    EmbeddedStore.open({ dir: dataDir }).close();
    writeFileSync(join(dir, 'demo.json'), '{}');
    const run = await launch(['--data-dir', dataDir, '--fresh'], {
      SESAME_DEMO_FILE: join(dir, 'demo.json'),
    });
    assert.equal(run.code, 1, run.out);
    assert.match(run.out, /no terminal to ask on: pass --yes/);
    assert.ok(existsSync(join(dataDir, 'sesame.db')));
    assert.ok(existsSync(join(dir, 'demo.json')));
  });
});

describe('POST /ops/store/backup (ops port)', () => {
  it('writes a consistent snapshot with the admin key; refuses without it, an existing file, a relative path and a bad body', async () => {
    const dir = tempDir();
    const embedded = await startEmbedded({ port: 0, env, dataDir: join(dir, 'data') });
    const post = (body: string, key = embedded.adminKey) =>
      fetch(`${embedded.opsUrl}${BACKUP_PATH}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
        body,
      });
    try {
      const file = join(dir, 'backup.db');
      assert.equal((await post(JSON.stringify({ file }), 'wrong-key')).status, 401);
      assert.equal(existsSync(file), false);
      const res = await post(JSON.stringify({ file }));
      assert.equal(res.status, 200);
      const answer = (await res.json()) as { status: string; bytes: number };
      assert.equal(answer.status, 'ok');
      assert.equal(answer.bytes, readFileSync(file).length);
      assert.equal(readFileSync(file).subarray(0, 15).toString(), 'SQLite format 3');
      const again = await post(JSON.stringify({ file }));
      assert.equal(again.status, 409);
      assert.equal(((await again.json()) as { error: { code: string } }).error.code, 'file_exists');
      for (const bad of [
        JSON.stringify({ file: 'relative.db' }),
        '{"file":',
        JSON.stringify({ path: file }),
      ]) {
        const refused = await post(bad);
        assert.equal(refused.status, 400, bad);
        assert.equal(((await refused.json()) as { status: string }).status, 'error');
      }
      // Not on the public port.
      assert.equal((await fetch(`${embedded.url}${BACKUP_PATH}`, { method: 'POST' })).status, 404);
    } finally {
      await embedded.stop();
    }
    // The snapshot is a store the engine opens, with the launcher's schema version.
    const copy = EmbeddedStore.open({ dir: join(dir, 'check') });
    copy.close();
    writeFileSync(join(dir, 'check', 'sesame.db'), readFileSync(join(dir, 'backup.db')));
    rmSync(join(dir, 'check', 'sesame.db-wal'), { force: true });
    const opened = EmbeddedStore.open({ dir: join(dir, 'check') });
    try {
      assert.equal(opened.versionOf(LAUNCHER_COMPONENT), 1);
    } finally {
      opened.close();
    }
  });
});
