import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { tempEngines } from '@sesame/embedded-store/testing';
import { MemoryKeyValueStore } from './memory';
import { RedisKeyValueStore } from './redis';
import { shortLivedKeyValueStore } from './short-lived';
import { SqliteKeyValueStore } from './sqlite';

const engines = tempEngines('auth-short-lived');

describe('short-lived state (auth: flows, codes, throttles; token: failed-authentication counters)', () => {
  it('stays in memory when the KV is on the embedded engine: a flow written there is no row in the store', async () => {
    const engine = engines.open(engines.dir());
    const durable = new SqliteKeyValueStore(engine, 'auth');
    const shortLived = shortLivedKeyValueStore(durable);
    assert.ok(shortLived instanceof MemoryKeyValueStore);
    await shortLived.set('flow:f-1', '{"id":"f-1"}', { ttlMs: 60_000 });
    assert.equal(await shortLived.get('flow:f-1'), '{"id":"f-1"}');
    assert.equal(await durable.get('flow:f-1'), null);
    const rows = engine.db.prepare('SELECT count(*) FROM kv_entries').pluck().get();
    assert.equal(rows, 0);
  });

  it('is the same store as everything else when that is in memory or on Redis (shared by every pod)', () => {
    const memory = new MemoryKeyValueStore();
    assert.equal(shortLivedKeyValueStore(memory), memory);
    const redis = Object.create(RedisKeyValueStore.prototype) as RedisKeyValueStore;
    assert.equal(shortLivedKeyValueStore(redis), redis);
  });
});
