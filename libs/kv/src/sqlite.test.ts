import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from '@jest/globals';
import { EmbeddedStore } from '@sesame/embedded-store';
import { commitsInLog, tempEngines } from '@sesame/embedded-store/testing';
import { killAtRandom } from '@sesame/testing';
import { keyValueStoreContract } from './contract';
import { pendingEntriesContract } from './pending-contract';
import { SqliteKeyValueStore } from './sqlite';

const tempDir = tempEngines('kv').dir;

/** An embedded KV on a new engine of its own, which closing the KV closes. */
function ownEngineKv() {
  const engine = EmbeddedStore.open({ dir: tempDir() });
  const kv = new SqliteKeyValueStore(engine, 'sesame:test:');
  const close = kv.close.bind(kv);
  kv.close = async () => {
    await close();
    engine.close();
  };
  return kv;
}

keyValueStoreContract('sqlite', ownEngineKv);
pendingEntriesContract('sqlite', ownEngineKv);

describe('SqliteKeyValueStore (embedded)', () => {
  it('writes the plain sets of one event-loop turn in one transaction: 200 tokens cost one commit, not 200', async () => {
    const dir = tempDir();
    const engine = EmbeddedStore.open({ dir });
    const kv = new SqliteKeyValueStore(engine, 'sesame:token:');
    await kv.set('warm', 'x', { ttlMs: 60_000 });
    engine.db.pragma('wal_checkpoint(TRUNCATE)');
    const wal = join(dir, 'sesame.db-wal');
    assert.equal(statSync(wal).size, 0);
    const stored = await Promise.all(
      Array.from({ length: 200 }, (_, i) => kv.set(`access:${i}`, `grant-${i}`, { ttlMs: 60_000 })),
    );
    assert.deepEqual(stored, Array(200).fill(true));
    // Each commit appends at least one page (4 KiB + 24-byte frame header) to the write-ahead log: 200
    // commits would be ≥ 200 pages; one commit of these rows is a dozen at most.
    const frames = Math.round((statSync(wal).size - 32) / (4096 + 24));
    assert.ok(frames <= 40, `${frames} pages appended to the log for 200 sets in one turn`);
    // A read, a take and an incr in the same turn see the queued sets as if each had been committed alone.
    const pending = kv.set('code:c1', 'grant-c1', { ttlMs: 60_000 });
    assert.equal(await kv.take('code:c1'), 'grant-c1');
    assert.equal(await pending, true);
    assert.equal(await kv.get('access:199'), 'grant-199');
    // Reads between the sets of a turn (a token looked up while others are issued) force no commit of their own.
    engine.db.pragma('wal_checkpoint(TRUNCATE)');
    await Promise.all(
      Array.from({ length: 200 }, async (_, i) => {
        await kv.get(`access:${i}`);
        await kv.set(`refresh:${i}`, `grant-${i}`, { ttlMs: 60_000 });
        assert.equal(await kv.get(`refresh:${i}`), `grant-${i}`);
        const ttl = (await kv.ttlMs(`refresh:${i}`)) ?? 0;
        assert.ok(ttl > 50_000 && ttl <= 60_000, `ttl ${ttl}`);
      }),
    );
    const more = Math.round((statSync(wal).size - 32) / (4096 + 24));
    assert.ok(more <= 40, `${more} pages appended to the log for 200 reads and sets in one turn`);
    await kv.close();
    engine.close();
  });

  it("writes a turn's schedule changes with its sets and deletes in one commit; due commits only for a change of its own schedule", async () => {
    const dir = tempDir();
    const engine = EmbeddedStore.open({ dir });
    const kv = new SqliteKeyValueStore(engine, 'sesame:auth:');
    const t = Date.now();
    await kv.schedule('user:u1', 'old-session', t - 1, 60_000);
    engine.db.pragma('wal_checkpoint(TRUNCATE)');
    // A sign-in's session: the new record, the old one deleted, the person's index read and changed.
    const [, , expired] = await Promise.all([
      kv.set('session:new', 'signed-in', { ttlMs: 60_000 }),
      kv.del('session:old'),
      kv.due('user:u1', t, 10),
      kv.schedule('user:u1', 'new-session', t + 60_000, 60_000),
    ]);
    assert.deepEqual(expired, ['old-session'], 'due read the schedule as committed before the turn');
    await kv.unschedule('user:u1', 'old-session');
    assert.equal(commitsInLog(dir), 2, 'the first four in one commit, the unschedule in the next turn');
    assert.deepEqual(await kv.due('user:u1', t + 60_000, 10), ['new-session']);
    // due after a queued change of its own schedule sees it (the turn is committed first), in call order.
    const put = kv.schedule('user:u2', 'a', t, 60_000);
    assert.deepEqual(await kv.due('user:u2', t, 10), ['a']);
    await put;
    const dropped = kv.unschedule('user:u2', 'a');
    const putAgain = kv.schedule('user:u2', 'b', t, 60_000);
    assert.deepEqual(await kv.due('user:u2', t, 10), ['b']);
    await Promise.all([dropped, putAgain]);
    // Reading another schedule while one is queued forces no commit.
    engine.db.pragma('wal_checkpoint(TRUNCATE)');
    const queued = kv.schedule('user:u3', 'c', t, 60_000);
    assert.deepEqual(await kv.due('user:u1', t + 60_000, 10), ['new-session']);
    await queued;
    assert.equal(commitsInLog(dir), 1);
    // An expired schedule reads as empty; the next change starts it afresh.
    await kv.schedule('user:u4', 'x', t, 1);
    await new Promise((resolve) => setTimeout(resolve, 5));
    assert.deepEqual(await kv.due('user:u4', Date.now(), 10), []);
    await kv.schedule('user:u4', 'y', t, 60_000);
    assert.deepEqual(await kv.due('user:u4', Date.now(), 10), ['y']);
    await kv.close();
    engine.close();
  });

  it("a turn in which another writer fails writes this KV's sets and schedules once, in the second pass", async () => {
    const dir = tempDir();
    const engine = EmbeddedStore.open({ dir });
    engine.db.exec('CREATE TABLE other (k TEXT PRIMARY KEY) STRICT');
    const kv = new SqliteKeyValueStore(engine, 'sesame:test:');
    const put = engine.db.prepare<[string]>('INSERT INTO other (k) VALUES (?)');
    await engine.inTurn(() => put.run('taken'));
    const [set, schedule, failing] = await Promise.allSettled([
      kv.set('a', '1', { ttlMs: 60_000 }),
      kv.schedule('index', 'member', 1_000, 60_000),
      engine.inTurn(() => put.run('taken')),
    ]);
    assert.equal(set.status, 'fulfilled');
    assert.equal(schedule.status, 'fulfilled');
    assert.equal(failing.status, 'rejected');
    assert.equal(await kv.get('a'), '1');
    assert.deepEqual(await kv.due('index', 2_000, 10), ['member']);
    const rows = (table: string) => engine.db.prepare(`SELECT count(*) FROM ${table}`).pluck().get();
    assert.equal(rows('kv_entries'), 1);
    assert.equal(rows('kv_schedule_members'), 1);
    await kv.close();
    engine.close();
  });

  it('keeps live keys, counters, windows and schedules across a close and a new open; expired ones stay gone', async () => {
    const dir = tempDir();
    let engine = EmbeddedStore.open({ dir });
    let kv = new SqliteKeyValueStore(engine, 'sesame:token:');
    await kv.set('refresh:h1', 'grant', { ttlMs: 60_000 });
    await kv.set('short', 'x', { ttlMs: 50 });
    await kv.incr('count', 60_000);
    await kv.admit([{ key: 'w', limit: 1, windowMs: 60_000 }], Date.now());
    await kv.schedule('s', 'm', 1, 60_000);
    await kv.close();
    engine.close();
    await new Promise((r) => setTimeout(r, 100));
    engine = EmbeddedStore.open({ dir });
    kv = new SqliteKeyValueStore(engine, 'sesame:token:');
    assert.equal(await kv.get('refresh:h1'), 'grant');
    assert.equal(await kv.get('short'), null);
    assert.equal(await kv.incr('count', 60_000), 2);
    assert.equal((await kv.admit([{ key: 'w', limit: 1, windowMs: 60_000 }], Date.now())).admitted, false);
    assert.deepEqual(await kv.due('s', 10, 10), ['m']);
    await kv.close();
    engine.close();
  });

  it("keeps each owner's namespace apart in one store", async () => {
    const engine = EmbeddedStore.open({ dir: tempDir() });
    const auth = new SqliteKeyValueStore(engine, 'sesame:auth:');
    const token = new SqliteKeyValueStore(engine, 'sesame:token:');
    await auth.set('k', 'auth', { ttlMs: 60_000 });
    assert.equal(await token.get('k'), null);
    await token.set('k', 'token', { ttlMs: 60_000 });
    assert.equal(await auth.get('k'), 'auth');
    await auth.close();
    await token.close();
    engine.close();
  });

  it('the sweep deletes expired rows from the file, not only from view', async () => {
    let now = 1_000;
    const engine = EmbeddedStore.open({ dir: tempDir() });
    const kv = new SqliteKeyValueStore(engine, 'sesame:test:', () => now);
    await kv.set('a', '1', { ttlMs: 10 });
    await kv.admit([{ key: 'w', limit: 5, windowMs: 10 }], now);
    await kv.schedule('s', 'm', 1, 10);
    now = 2_000;
    kv.sweep();
    const count = (table: string) =>
      (engine.db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    assert.deepEqual(
      ['kv_entries', 'kv_window_hits', 'kv_schedules', 'kv_schedule_members'].map(count),
      [0, 0, 0, 0],
    );
    await kv.close();
    engine.close();
  });

  it('migrations 2 and 3: a store of KV version 1 gains the index the sweep finds expired schedules by and the pending tables, its data intact', async () => {
    const dir = tempDir();
    let engine = EmbeddedStore.open({ dir });
    let kv = new SqliteKeyValueStore(engine, 'sesame:test:');
    await kv.schedule('s', 'm', 1, 60_000);
    await kv.close();
    // Back to what version 1 made: as a store written before migration 2.
    engine.db.exec('DROP INDEX kv_schedules_expiry');
    engine.db.exec('DROP TABLE kv_pending; DROP TABLE kv_pending_groups; DROP TABLE kv_pending_pools');
    engine.db.prepare("UPDATE schema_versions SET version = 1 WHERE component = 'kv'").run();
    engine.close();
    engine = EmbeddedStore.open({ dir });
    kv = new SqliteKeyValueStore(engine, 'sesame:test:');
    assert.equal(engine.versionOf('kv'), 3);
    const plan = engine.db
      .prepare('EXPLAIN QUERY PLAN SELECT ns, key FROM kv_schedules WHERE expires_at <= ?')
      .all(0) as { detail: string }[];
    assert.match(plan.map((p) => p.detail).join('; '), /USING (COVERING )?INDEX kv_schedules_expiry/);
    assert.deepEqual(await kv.due('s', 10, 10), ['m']);
    const pool = { pool: 'p', group: 'g', groupMax: 1, poolMax: 1 };
    assert.deepEqual(await kv.addPending('a', '1', 60_000, pool), []);
    assert.deepEqual(await kv.addPending('b', '2', 60_000, pool), ['a']);
    await kv.close();
    engine.close();
  });

  it('kill -9 in the middle of writes loses no write that was answered (5 kills at random points)', async () => {
    const dir = tempDir();
    const writer = fileURLToPath(new URL('./testing/sqlite-writer.ts', import.meta.url));
    const answered = await killAtRandom({
      script: writer,
      dir,
      rounds: 5,
      killAfter: { min: 50, spread: 400 },
      child: 'the writer',
      unit: 'writes',
    });
    const engine = EmbeddedStore.open({ dir });
    const kv = new SqliteKeyValueStore(engine, 'sesame:test:');
    const values = await kv.getMany(answered);
    assert.deepEqual(
      answered.filter((_, i) => values[i] !== 'written'),
      [],
    );
    await kv.close();
    engine.close();
  }, 120_000);
});
