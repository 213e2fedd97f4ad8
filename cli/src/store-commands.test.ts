import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, it } from '@jest/globals';
import { startEmbedded } from '@sesame/embedded';
import { EmbeddedStore } from '@sesame/embedded-store';
import { type Io, run } from './cli';

/** Issue 36: `npm run sesame -- backup <file>` and `restore <file>` for the embedded default's store. */
const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'sesame-cli-store-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function cli(argv: string[], opts: { env?: Record<string, string>; confirm?: Io['confirm'] } = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await run(argv, opts.env ?? {}, {
    out: (l) => out.push(l),
    err: (l) => err.push(l),
    ...(opts.confirm ? { confirm: opts.confirm } : {}),
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** A store as a platform leaves it (the launcher's schema version), with one row to recognise it by. */
function makeStore(dataDir: string, mark: string) {
  const store = EmbeddedStore.open({ dir: dataDir });
  store.migrate('embedded', [
    (db) => db.exec('CREATE TABLE embedded_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT'),
  ]);
  store.db.prepare("INSERT INTO embedded_meta (key, value) VALUES ('mark', ?)").run(mark);
  store.close();
}
function markOf(dataDir: string): string | undefined {
  const store = EmbeddedStore.open({ dir: dataDir });
  try {
    return store.db.prepare<[], { value: string }>("SELECT value FROM embedded_meta WHERE key = 'mark'").get()
      ?.value;
  } finally {
    store.close();
  }
}

describe('sesame backup', () => {
  it('snapshots a stopped store straight from its files; never overwrites a file', async () => {
    const dir = tempDir();
    makeStore(join(dir, 'data'), 'stopped');
    const file = join(dir, 'backup.db');
    const made = await cli(['backup', file, '--data-dir', join(dir, 'data')]);
    assert.equal(made.code, 0, made.err);
    assert.match(made.out, /\(stopped store\)/);
    makeStore(join(dir, 'copy'), 'other');
    writeFileSync(join(dir, 'copy', 'sesame.db'), readFileSync(file));
    rmSync(join(dir, 'copy', 'sesame.db-wal'), { force: true });
    assert.equal(markOf(join(dir, 'copy')), 'stopped');
    const again = await cli(['backup', file, '--data-dir', join(dir, 'data')]);
    assert.equal(again.code, 1);
    assert.match(again.err, /exists; a backup never overwrites a file/);
  });

  it('asks the running platform that holds the store for an online snapshot (ops port, admin key)', async () => {
    const dir = tempDir();
    const dataDir = join(dir, 'data');
    const platform = await startEmbedded({ port: 0, env: { LOG_LEVEL: 'silent' }, dataDir });
    try {
      writeFileSync(join(dataDir, 'ops.json'), JSON.stringify({ pid: process.pid, opsUrl: platform.opsUrl }));
      const file = join(dir, 'online.db');
      const refused = await cli(['backup', file, '--data-dir', dataDir, '--admin-key', 'not-the-key']);
      assert.equal(refused.code, 1);
      assert.match(refused.err, /refused the backup \(401\)/);
      const made = await cli(['backup', file, '--data-dir', dataDir], {
        env: { SESAME_ADMIN_KEY: platform.adminKey },
      });
      assert.equal(made.code, 0, made.err);
      assert.match(made.out, /\(running platform\)/);
      assert.equal(readFileSync(file).subarray(0, 15).toString(), 'SQLite format 3');
    } finally {
      await platform.stop();
    }
  });

  it('says so when there is no store, and needs one FILE', async () => {
    const dir = tempDir();
    const none = await cli(['backup', join(dir, 'b.db'), '--data-dir', join(dir, 'nothing')]);
    assert.equal(none.code, 1);
    assert.match(none.err, /no store in/);
    assert.equal((await cli(['backup', '--data-dir', dir])).code, 2);
    assert.equal((await cli(['backup', 'b.db', '--tenant', 't'])).code, 2);
  });
});

describe('sesame restore', () => {
  const setUp = () => {
    const dir = tempDir();
    makeStore(join(dir, 'data'), 'current');
    makeStore(join(dir, 'source'), 'from-backup');
    const file = join(dir, 'backup.db');
    writeFileSync(file, readFileSync(join(dir, 'source', 'sesame.db')));
    return { dir, dataDir: join(dir, 'data'), file };
  };

  it('replaces the store with the backup after a yes, and only then', async () => {
    const { dataDir, file } = setUp();
    const declined = await cli(['restore', file, '--data-dir', dataDir], { confirm: async () => false });
    assert.equal(declined.code, 1);
    assert.equal(markOf(dataDir), 'current');
    const asked: string[] = [];
    const restored = await cli(['restore', file, '--data-dir', dataDir], {
      confirm: async (q) => {
        asked.push(q);
        return true;
      },
    });
    assert.equal(restored.code, 0, restored.err);
    assert.match(asked[0]!, /Replace every tenant, person and log in/);
    assert.equal(markOf(dataDir), 'from-backup');
  });

  it('without a terminal refuses unless --yes; --yes replaces without asking; an empty place needs no question', async () => {
    const { dir, dataDir, file } = setUp();
    const refused = await cli(['restore', file, '--data-dir', dataDir]);
    assert.equal(refused.code, 1);
    assert.match(refused.err, /no terminal to ask on: pass --yes/);
    assert.equal(markOf(dataDir), 'current');
    assert.equal((await cli(['restore', file, '--data-dir', dataDir, '--yes'])).code, 0);
    assert.equal(markOf(dataDir), 'from-backup');
    assert.equal((await cli(['restore', file, '--data-dir', join(dir, 'new')])).code, 0);
    assert.equal(markOf(join(dir, 'new')), 'from-backup');
  });

  it('refuses while a platform holds the data directory', async () => {
    const { dataDir, file } = setUp();
    const held = EmbeddedStore.open({ dir: dataDir });
    try {
      const res = await cli(['restore', file, '--data-dir', dataDir, '--yes']);
      assert.equal(res.code, 1);
      assert.match(res.err, /cannot restore: the data directory .* is in use by another Sesame process/);
    } finally {
      held.close();
    }
    assert.equal(markOf(dataDir), 'current');
  });

  it('refuses a file that is not a Sesame store, a SQLite file without the launcher’s schema version, and one from a newer Sesame', async () => {
    const { dir, dataDir } = setUp();
    const text = join(dir, 'notes.txt');
    writeFileSync(text, 'not a database at all');
    const other = join(dir, 'other');
    EmbeddedStore.open({ dir: other }).close();
    const newer = join(dir, 'newer');
    makeStore(newer, 'future');
    const future = EmbeddedStore.open({ dir: newer });
    future.db.exec("UPDATE schema_versions SET version = 99 WHERE component = 'embedded'");
    future.close();
    const cases: Array<[string, RegExp]> = [
      [text, /is not a Sesame store \(not a SQLite database\)/],
      [join(other, 'sesame.db'), /is not a Sesame store \(no "embedded" schema version in it\)/],
      [join(newer, 'sesame.db'), /was written by a newer Sesame \(store format 99; this one knows up to 1\)/],
      [join(dir, 'missing.db'), /does not exist/],
    ];
    for (const [file, message] of cases) {
      const res = await cli(['restore', file, '--data-dir', dataDir, '--yes']);
      assert.equal(res.code, 1, file);
      assert.match(res.err, message);
      assert.equal(markOf(dataDir), 'current');
    }
    assert.equal(existsSync(join(dir, 'data', 'sesame.db')), true);
  });
});
