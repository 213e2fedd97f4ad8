import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { describe, it } from '@jest/globals';
import { EmbeddedStore, WAL_CHECKPOINT_PAGES, WAL_SIZE_LIMIT_BYTES } from './embedded-store';
import { tempEngines } from './testing/temp-engines';

const tempDir = tempEngines('store').dir;

const holder = fileURLToPath(new URL('./testing/hold-store.ts', import.meta.url));
/** Starts a process that opens the store; resolves with its first line ("open" or "refused: …"). */
function hold(dir: string): Promise<{ child: ChildProcess; said: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', holder, dir], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  return new Promise((resolve) => {
    createInterface({ input: child.stdout! }).once('line', (said) => resolve({ child, said }));
  });
}

const table = (name: string) => (db: EmbeddedStore['db']) =>
  db.exec(`CREATE TABLE ${name} (x INTEGER) STRICT`);

describe('EmbeddedStore', () => {
  it('a second process on the same data directory is refused with a message naming the holder; after it exits, it opens', async () => {
    const dir = tempDir();
    const first = await hold(dir);
    assert.equal(first.said, 'open');
    const second = await hold(dir);
    assert.match(
      second.said,
      /^refused: the data directory .* is in use by another Sesame process \(pid \d+\)/,
    );
    first.child.kill('SIGKILL');
    await new Promise((r) => first.child.once('exit', r));
    const third = await hold(dir);
    assert.equal(third.said, 'open');
    third.child.stdin!.end();
    await new Promise((r) => third.child.once('exit', r));
  }, 60_000);

  it('checkpoints the log only past WAL_CHECKPOINT_PAGES pages, and the log is reused from its start after', () => {
    const dir = tempDir();
    const store = EmbeddedStore.open({ dir });
    const { db } = store;
    assert.equal(db.pragma('wal_autocheckpoint', { simple: true }), WAL_CHECKPOINT_PAGES);
    assert.equal(db.pragma('journal_size_limit', { simple: true }), WAL_SIZE_LIMIT_BYTES);
    store.migrate('t', [
      (d) => d.exec('CREATE TABLE pages (n INTEGER PRIMARY KEY, body BLOB NOT NULL) STRICT'),
    ]);
    const pageSize = db.pragma('page_size', { simple: true }) as number;
    const walPages = () => statSync(join(dir, 'sesame.db-wal')).size / (pageSize + 24);
    const insert = db.prepare('INSERT INTO pages (n, body) VALUES (?, ?)');
    // One commit per row of nearly a page: each logs about one page more. SQLite's default (1,000 pages) would
    // have checkpointed and started the log again from its first page by 3,000 of them.
    const body = Buffer.alloc(pageSize - 200, 7);
    for (let n = 0; n < 3000; n++) insert.run(n, body);
    assert.ok(walPages() > 3000, `the log holds ${walPages()} pages`);
    for (let n = 3000; n < WAL_CHECKPOINT_PAGES + 1000; n++) insert.run(n, body);
    // Past the threshold a checkpoint ran and the log started over: it is no longer growing at its end.
    const before = walPages();
    for (let n = WAL_CHECKPOINT_PAGES + 1000; n < WAL_CHECKPOINT_PAGES + 1100; n++) insert.run(n, body);
    assert.equal(walPages(), before);
    assert.ok(before * (pageSize + 24) <= WAL_SIZE_LIMIT_BYTES);
    assert.equal(db.prepare('SELECT count(*) FROM pages').pluck().get(), WAL_CHECKPOINT_PAGES + 1100);
    store.close();
  });

  it('the same process opening it twice is refused too, and the first connection keeps working', () => {
    const dir = tempDir();
    const store = EmbeddedStore.open({ dir });
    assert.throws(() => EmbeddedStore.open({ dir }), /in use by another Sesame process/);
    store.migrate('t', [table('a')]);
    assert.equal(store.versionOf('t'), 1);
    store.close();
  });

  it('migrates a component forward step by step and records its version; others keep their own', () => {
    const dir = tempDir();
    let store = EmbeddedStore.open({ dir });
    store.migrate('users', [table('users_v1')]);
    store.migrate('kv', [table('kv_v1')]);
    store.close();
    store = EmbeddedStore.open({ dir });
    store.migrate('users', [table('users_v1'), table('users_v2'), table('users_v3')]);
    assert.equal(store.versionOf('users'), 3);
    assert.equal(store.versionOf('kv'), 1);
    const tables = store.db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'users_%' ORDER BY name")
      .pluck()
      .all();
    assert.deepEqual(Array.from(tables), ['users_v1', 'users_v2', 'users_v3']);
    store.close();
  });

  it('a failing step rolls back alone: the earlier steps stay, the version names the last good one', () => {
    const store = EmbeddedStore.open({ dir: tempDir() });
    assert.throws(() =>
      store.migrate('c', [
        table('good'),
        (db) => {
          db.exec('CREATE TABLE half (x INTEGER)');
          throw new Error('step 2 failed');
        },
      ]),
    );
    assert.equal(store.versionOf('c'), 1);
    const half = store.db.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'half'").pluck().get();
    assert.equal(half, 0);
    store.close();
  });

  it('refuses a store written by a newer Sesame with a message that says what to do', () => {
    const dir = tempDir();
    let store = EmbeddedStore.open({ dir });
    store.migrate('users', [table('a'), table('b')]);
    store.close();
    store = EmbeddedStore.open({ dir });
    assert.throws(
      () => store.migrate('users', [table('a')]),
      /written by a newer Sesame \(users schema version 2; this one knows up to 1\); upgrade Sesame/,
    );
    store.close();
  });

  it('backup writes a consistent copy while the store is open, which opens as a store of its own', async () => {
    const dir = tempDir();
    const store = EmbeddedStore.open({ dir });
    store.migrate('t', [table('rows')]);
    const insert = store.db.prepare('INSERT INTO rows (x) VALUES (?)');
    for (let i = 0; i < 1000; i++) insert.run(i);
    const copyDir = tempDir();
    await store.backup(join(copyDir, 'sesame.db'));
    insert.run(1000);
    store.close();
    const copy = EmbeddedStore.open({ dir: copyDir });
    assert.equal(copy.versionOf('t'), 1);
    assert.equal(copy.db.prepare('SELECT count(*) FROM rows').pluck().get(), 1000);
    copy.close();
  });
});
