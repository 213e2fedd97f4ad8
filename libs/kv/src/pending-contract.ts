import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { afterAll, describe, it } from '@jest/globals';
import type { KeyValueStore, PendingPool } from './port';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The rules of pending entries (addPending, confirmPending) every KeyValueStore adapter must keep: run against
 * the in-memory and embedded adapters in the unit tests and against a real Redis in the integration tests.
 * Entries are added a few ms apart, so "oldest" is the same on every adapter.
 */
export function pendingEntriesContract(adapter: string, make: () => KeyValueStore): void {
  describe(`KeyValueStore pending entries contract: ${adapter}`, () => {
    const store = make();
    afterAll(() => store.close());
    const limits = (groupMax: number, poolMax: number, group = 'tenant-a') => ({
      pool: `pool-${randomUUID()}`,
      group,
      groupMax,
      poolMax,
    });
    /** Adds `n` entries to `pool`, 3 ms apart: their keys, oldest first, and every eviction answered. */
    async function addAll(pool: PendingPool, n: number, ttlMs = 60_000) {
      const keys: string[] = [];
      const evicted: string[] = [];
      for (let i = 0; i < n; i++) {
        const key = `pending:${randomUUID()}`;
        keys.push(key);
        evicted.push(...(await store.addPending(key, `v${i}`, ttlMs, pool)));
        await sleep(3);
      }
      return { keys, evicted };
    }
    const values = (keys: string[]) => store.getMany(keys);

    it('stores the value for its TTL, as set does', async () => {
      const pool = limits(10, 10);
      const { keys } = await addAll(pool, 1, 5_000);
      assert.equal(await store.get(keys[0]!), 'v0');
      const ttl = await store.ttlMs(keys[0]!);
      assert.ok(ttl !== null && ttl > 3_000 && ttl <= 5_000, `ttl ${ttl}`);
    });

    it('a full group evicts its oldest pending entry first, and answers its key', async () => {
      const pool = limits(3, 100);
      const { keys, evicted } = await addAll(pool, 5);
      assert.deepEqual(evicted, [keys[0], keys[1]]);
      assert.deepEqual(await values(keys), [null, null, 'v2', 'v3', 'v4']);
    });

    it('a full pool evicts the oldest pending entry of any group', async () => {
      const a = limits(10, 3, 'tenant-a');
      const b = { ...a, group: 'tenant-b' };
      const first = await addAll(a, 2);
      const second = await addAll(b, 1);
      assert.deepEqual([...first.evicted, ...second.evicted], []);
      // The pool is full: b's next entry evicts a's oldest, and a's next one a's second.
      const third = await addAll(b, 1);
      assert.deepEqual(third.evicted, [first.keys[0]]);
      const fourth = await addAll(a, 1);
      assert.deepEqual(fourth.evicted, [first.keys[1]]);
      assert.deepEqual(await values([...first.keys, ...second.keys, ...third.keys, ...fourth.keys]), [
        null,
        null,
        'v0',
        'v0',
        'v0',
      ]);
      // The group counts only its live members: a now holds 1 of 10, b 2; the pool 3 of 3 again.
      const fifth = await addAll(a, 1);
      assert.deepEqual(fifth.evicted, [second.keys[0]]);
    });

    it('a confirmed entry is never evicted, and leaves room for a new pending one', async () => {
      const pool = limits(2, 2);
      const { keys } = await addAll(pool, 2);
      assert.equal(await store.confirmPending(keys[0]!, 'identified', 60_000, pool), true);
      const flood = await addAll(pool, 6);
      assert.equal(await store.get(keys[0]!), 'identified');
      // The room: one pending place was free after the confirmation, then each start evicts the oldest pending.
      assert.deepEqual(flood.evicted, [keys[1], ...flood.keys.slice(0, 4)]);
      assert.deepEqual(await values(flood.keys), [null, null, null, null, 'v4', 'v5']);
    });

    it('confirmPending gives the new value and TTL once; false for an evicted, expired or unknown key', async () => {
      const pool = limits(1, 10);
      const { keys } = await addAll(pool, 2, 5_000);
      assert.equal(await store.confirmPending(keys[0]!, 'late', 60_000, pool), false, 'evicted');
      assert.equal(await store.get(keys[0]!), null, 'an evicted entry is not brought back');
      assert.equal(await store.confirmPending(keys[1]!, 'mine', 60_000, pool), true);
      const ttl = await store.ttlMs(keys[1]!);
      assert.ok(ttl !== null && ttl > 50_000, `ttl ${ttl}`);
      assert.equal(await store.confirmPending(keys[1]!, 'again', 60_000, pool), false, 'confirmed already');
      assert.equal(await store.get(keys[1]!), 'mine');
      assert.equal(await store.confirmPending(`pending:${randomUUID()}`, 'x', 60_000, pool), false);
      const short = await addAll(pool, 1, 100);
      await sleep(250);
      assert.equal(await store.confirmPending(short.keys[0]!, 'x', 60_000, pool), false, 'expired');
      assert.equal(await store.get(short.keys[0]!), null);
    });

    it('expired pending entries free their places: nothing live is evicted for them', async () => {
      const pool = limits(2, 2);
      await addAll(pool, 2, 100);
      await sleep(250);
      const { keys, evicted } = await addAll(pool, 2);
      assert.deepEqual(evicted, []);
      assert.deepEqual(await values(keys), ['v0', 'v1']);
    });

    it('of 20 parallel starts in a pool of 5, exactly 15 are evicted and 5 stay', async () => {
      const pool = limits(5, 5);
      const keys = Array.from({ length: 20 }, () => `pending:${randomUUID()}`);
      const evicted = (await Promise.all(keys.map((k) => store.addPending(k, 'v', 60_000, pool)))).flat();
      assert.equal(evicted.length, 15);
      assert.equal(new Set(evicted).size, 15);
      const live = (await values(keys)).filter((v) => v !== null);
      assert.equal(live.length, 5);
    });

    it('pools are apart: a full pool evicts nothing of another', async () => {
      const one = limits(1, 1);
      const other = limits(1, 1);
      const kept = await addAll(other, 1);
      await addAll(one, 3);
      assert.equal(await store.get(kept.keys[0]!), 'v0');
    });
  });
}
