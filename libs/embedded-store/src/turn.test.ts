import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { EmbeddedStore, type TurnWriter } from './embedded-store';
import { commitsInLog, tempEngines } from './testing';

const engines = tempEngines('turn');

function open() {
  const dir = engines.dir();
  const store = EmbeddedStore.open({ dir });
  store.db.exec('CREATE TABLE t (k TEXT PRIMARY KEY, v TEXT NOT NULL) STRICT');
  store.db.pragma('wal_checkpoint(TRUNCATE)');
  const put = store.db.prepare<[string, string]>('INSERT INTO t (k, v) VALUES (?, ?)');
  const rows = () => store.db.prepare('SELECT k FROM t ORDER BY k').pluck().all() as string[];
  return { dir, store, put, rows: () => Array.from(rows()) };
}

describe('EmbeddedStore group commit (joinTurn, inTurn)', () => {
  it('the writes of several writers in one turn of the event loop are one commit, answered after it', async () => {
    const { dir, store, put, rows } = open();
    const answered = await Promise.all([
      store.inTurn(() => put.run('a', '1').changes),
      store.inTurn(() => put.run('b', '2').changes),
      store.inTurn(() => put.run('c', '3').changes),
    ]);
    assert.deepEqual(answered, [1, 1, 1]);
    assert.deepEqual(rows(), ['a', 'b', 'c']);
    assert.equal(commitsInLog(dir), 1);
    await store.inTurn(() => put.run('d', '4'));
    assert.equal(commitsInLog(dir), 2);
    store.close();
  });

  it("a writer's error undoes only its own writes: the others in the turn commit", async () => {
    const { store, put, rows } = open();
    const results = await Promise.allSettled([
      store.inTurn(() => put.run('a', '1')),
      store.inTurn(() => {
        put.run('b', '2');
        put.run('a', 'duplicate key');
      }),
      store.inTurn(() => put.run('c', '3')),
    ]);
    assert.deepEqual(
      results.map((r) => r.status),
      ['fulfilled', 'rejected', 'fulfilled'],
    );
    assert.match(String((results[1] as PromiseRejectedResult).reason), /UNIQUE constraint failed: t\.k/);
    assert.deepEqual(rows(), ['a', 'c']);
    store.close();
  });

  it('each writer writes once when none fails; after a failure the others write again, and commit once', async () => {
    const { dir, store, put, rows } = open();
    const calls = { a: 0, b: 0, c: 0 };
    const ok = await Promise.all([
      store.inTurn(() => ++calls.a && put.run('a', '1')),
      store.inTurn(() => ++calls.b && put.run('b', '2')),
    ]);
    assert.equal(ok.length, 2);
    assert.deepEqual(calls, { a: 1, b: 1, c: 0 }, 'one pass, no rollback');
    const results = await Promise.allSettled([
      store.inTurn(() => ++calls.c && put.run('c', '3')),
      store.inTurn(() => put.run('a', 'duplicate key')),
    ]);
    assert.deepEqual(
      results.map((r) => r.status),
      ['fulfilled', 'rejected'],
    );
    assert.equal(calls.c, 2, 'written in the pass that failed, then again in its own savepoint');
    assert.deepEqual(rows(), ['a', 'b', 'c']);
    assert.equal(commitsInLog(dir), 2, 'a rolled-back pass commits nothing');
    store.close();
  });

  it('nothing is answered before the commit, and commitTurn commits at once', async () => {
    const { store, put, rows } = open();
    const told: string[] = [];
    const writer: TurnWriter = {
      write: () => put.run('a', '1'),
      committed: () => told.push('committed'),
      failed: (err) => told.push(`failed ${err}`),
    };
    store.joinTurn(writer);
    store.joinTurn(writer);
    assert.deepEqual(told, []);
    assert.deepEqual(rows(), []);
    store.commitTurn();
    assert.deepEqual(told, ['committed']);
    assert.deepEqual(rows(), ['a']);
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(told, ['committed'], 'joined twice in a turn, written and told once');
    store.close();
  });

  it('close commits what the turn holds; on a closed store every writer is refused', async () => {
    const { dir, store, put } = open();
    const pending = store.inTurn(() => put.run('a', '1').changes);
    store.close();
    assert.equal(await pending, 1);
    const reopened = EmbeddedStore.open({ dir });
    assert.equal(reopened.db.prepare('SELECT count(*) FROM t').pluck().get(), 1);
    reopened.close();
    await assert.rejects(
      reopened.inTurn(() => 1),
      /the embedded store is closed/,
    );
  });
});
