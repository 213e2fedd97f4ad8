import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { afterAll, describe, it } from '@jest/globals';
import type { KeyValueStore } from './port';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Resolves once `done` holds (checked every 10 ms); fails the test after 2 s. */
async function waitFor(done: () => boolean): Promise<void> {
  for (let waited = 0; !done(); waited += 10) {
    if (waited > 2_000) throw new Error('not within 2 s');
    await sleep(10);
  }
}

/** The behaviour every KeyValueStore adapter must have; run against the in-memory and the Redis adapter. */
export function keyValueStoreContract(adapter: string, make: () => KeyValueStore): void {
  describe(`KeyValueStore contract: ${adapter}`, () => {
    const store = make();
    const key = () => `test:${randomUUID()}`;
    afterAll(() => store.close());

    it('returns null for a missing key and the value for a set key', async () => {
      const k = key();
      assert.equal(await store.get(k), null);
      assert.equal(await store.set(k, 'v1', { ttlMs: 10_000 }), true);
      assert.equal(await store.get(k), 'v1');
    });

    it("getMany answers the values in the keys' order, null for a missing or expired key, [] for none", async () => {
      const [a, b, gone, missing] = [key(), key(), key(), key()];
      await store.set(a, 'A', { ttlMs: 10_000 });
      await store.set(b, 'B', { ttlMs: 10_000 });
      await store.set(gone, 'G', { ttlMs: 100 });
      await sleep(250);
      assert.deepEqual(await store.getMany([b, missing, a, gone]), ['B', null, 'A', null]);
      assert.deepEqual(await store.getMany([]), []);
    });

    it('expires a key after its TTL', async () => {
      const k = key();
      await store.set(k, 'short', { ttlMs: 150 });
      assert.equal(await store.get(k), 'short');
      await sleep(300);
      assert.equal(await store.get(k), null);
      assert.equal(await store.ttlMs(k), null);
    });

    it('onlyIfAbsent refuses to overwrite a live key', async () => {
      const k = key();
      assert.equal(await store.set(k, 'first', { ttlMs: 10_000, onlyIfAbsent: true }), true);
      assert.equal(await store.set(k, 'second', { ttlMs: 10_000, onlyIfAbsent: true }), false);
      assert.equal(await store.get(k), 'first');
    });

    it('take returns the value exactly once', async () => {
      const k = key();
      await store.set(k, 'code', { ttlMs: 10_000 });
      const results = await Promise.all([store.take(k), store.take(k), store.take(k)]);
      assert.deepEqual(
        results.filter((r) => r !== null),
        ['code'],
      );
      assert.equal(await store.get(k), null);
    });

    it('replace keeps the remaining TTL and refuses a missing key', async () => {
      const k = key();
      assert.equal(await store.replace(k, 'x'), false);
      assert.equal(await store.get(k), null);
      await store.set(k, 'a', { ttlMs: 5_000 });
      assert.equal(await store.replace(k, 'b'), true);
      assert.equal(await store.get(k), 'b');
      const ttl = await store.ttlMs(k);
      assert.ok(ttl !== null && ttl > 3_000 && ttl <= 5_000, `ttl ${ttl}`);
    });

    it('incr counts from 1 and sets the TTL only on creation', async () => {
      const k = key();
      assert.equal(await store.incr(k, 5_000), 1);
      assert.equal(await store.incr(k, 60_000), 2);
      const ttl = await store.ttlMs(k);
      assert.ok(ttl !== null && ttl <= 5_000, `ttl ${ttl}`);
    });

    it('decr counts down a live counter, keeping its TTL, and never creates a missing one', async () => {
      const k = key();
      await store.incr(k, 5_000);
      await store.incr(k, 5_000);
      assert.equal(await store.decr(k), 1);
      const ttl = await store.ttlMs(k);
      assert.ok(ttl !== null && ttl <= 5_000, `ttl ${ttl}`);
      const missing = key();
      assert.equal(await store.decr(missing), 0);
      assert.equal(await store.get(missing), null);
    });

    it('del removes a key', async () => {
      const k = key();
      await store.set(k, 'v', { ttlMs: 10_000 });
      await store.del(k);
      assert.equal(await store.get(k), null);
    });

    it('a signal reaches the listeners of its channel only, each once, until they stop listening', async () => {
      const [channel, other] = [key(), key()];
      const heard: string[] = [];
      const stopA = await store.listen(channel, () => heard.push('a'));
      const stopB = await store.listen(channel, () => heard.push('b'));
      const stopOther = await store.listen(other, () => heard.push('other'));
      await store.signal(channel);
      await waitFor(() => heard.length >= 2);
      await sleep(100);
      assert.deepEqual([...heard].sort(), ['a', 'b']);
      stopA();
      await store.signal(channel);
      await waitFor(() => heard.length >= 3);
      await sleep(100);
      assert.deepEqual([...heard].sort(), ['a', 'b', 'b']);
      stopB();
      stopOther();
      await store.signal(channel);
      await store.signal(other);
      await sleep(100);
      assert.equal(heard.length, 3);
    });

    it('the same function listening twice is two subscriptions: stopping one keeps the other', async () => {
      const channel = key();
      let heard = 0;
      const listener = () => {
        heard++;
      };
      const first = await store.listen(channel, listener);
      const second = await store.listen(channel, listener);
      first();
      first(); // stopping twice changes nothing
      await store.signal(channel);
      await waitFor(() => heard >= 1);
      await sleep(100);
      assert.equal(heard, 1);
      second();
    });

    it('listeners that start together all hear the first signal after they resolve', async () => {
      const channel = key();
      let heard = 0;
      const stops = await Promise.all(
        [1, 2, 3].map(() =>
          store.listen(channel, () => {
            heard++;
          }),
        ),
      );
      await store.signal(channel);
      await waitFor(() => heard >= 3);
      for (const stop of stops) stop();
    });

    it('a signal with nobody listening is dropped, not kept for a later listener', async () => {
      // Thirty channels, each listened to right after its signal returned: on a Redis Cluster a plain PUBLISH
      // still travels the cluster bus then, and reached a listener on another node about once in a few runs.
      const channels = Array.from({ length: 30 }, () => key());
      let heard = 0;
      const stops: Array<() => void> = [];
      for (const channel of channels) {
        await store.signal(channel);
        stops.push(
          await store.listen(channel, () => {
            heard++;
          }),
        );
      }
      await sleep(150);
      assert.equal(heard, 0);
      for (const stop of stops) stop();
    });

    it('admit: a sliding window admits `limit` calls, refuses the next with the time until the oldest leaves', async () => {
      const w = { key: key(), limit: 3, windowMs: 1_000 };
      const t0 = 1_000_000;
      for (const t of [t0, t0 + 100, t0 + 200])
        assert.deepEqual(await store.admit([w], t), { admitted: true });
      assert.deepEqual(await store.admit([w], t0 + 300), { admitted: false, blocked: 0, retryAfterMs: 700 });
      // A refusal records nothing: the window frees a place when the first admission is 1 s old, not later.
      assert.deepEqual(await store.admit([w], t0 + 1_000), { admitted: true });
      assert.deepEqual(await store.admit([w], t0 + 1_050), { admitted: false, blocked: 0, retryAfterMs: 50 });
    });

    it('admit over several windows records in all or none, and names the first full one', async () => {
      const perTarget = { key: key(), limit: 2, windowMs: 60_000 };
      const perClient = { key: key(), limit: 3, windowMs: 60_000 };
      const otherTarget = { key: key(), limit: 2, windowMs: 60_000 };
      const t = 5_000_000;
      assert.deepEqual(await store.admit([perTarget, perClient], t), { admitted: true });
      assert.deepEqual(await store.admit([perTarget, perClient], t + 1), { admitted: true });
      const refused = await store.admit([perTarget, perClient], t + 2);
      assert.deepEqual(refused, { admitted: false, blocked: 0, retryAfterMs: 59_998 });
      // The refused call took no place in perClient: one more target still fits, then the client is full.
      assert.deepEqual(await store.admit([otherTarget, perClient], t + 3), { admitted: true });
      assert.deepEqual(await store.admit([otherTarget, perClient], t + 4), {
        admitted: false,
        blocked: 1,
        retryAfterMs: 59_996,
      });
    });

    it('admit holds the limit exactly under 50 parallel calls', async () => {
      const w = { key: key(), limit: 5, windowMs: 60_000 };
      const now = Date.now();
      const answers = await Promise.all(Array.from({ length: 50 }, () => store.admit([w], now)));
      assert.equal(answers.filter((a) => a.admitted).length, 5);
    });

    it('admissionWaitMs reads the wait until admit would admit, over every full window, recording nothing', async () => {
      const a = { key: key(), limit: 2, windowMs: 1_000 };
      const b = { key: key(), limit: 1, windowMs: 5_000 };
      const t0 = 2_000_000;
      assert.equal(await store.admissionWaitMs([a, b], t0), 0);
      assert.deepEqual(await store.admit([a], t0), { admitted: true });
      assert.equal(await store.admissionWaitMs([a, b], t0 + 100), 0, 'a has a place left, b is empty');
      assert.deepEqual(await store.admit([a, b], t0 + 200), { admitted: true });
      // a frees a place at t0 + 1000, b at t0 + 5200: admit needs both, so the wait is b's.
      assert.equal(await store.admissionWaitMs([a, b], t0 + 300), 4_900);
      assert.equal(await store.admissionWaitMs([a], t0 + 300), 700);
      assert.equal(await store.admissionWaitMs([a], t0 + 300), 700, 'asking took no place');
      assert.equal(await store.admissionWaitMs([a], t0 + 1_000), 0);
      assert.equal(await store.admissionWaitMs([], t0), 0);
      assert.deepEqual(await store.admit([a], t0 + 1_000), { admitted: true });
    });

    it('schedule keeps members by time: due lists those due, earliest first; unschedule removes one', async () => {
      const k = key();
      await store.schedule(k, 'late', 3_000, 60_000);
      await store.schedule(k, 'early', 1_000, 60_000);
      await store.schedule(k, 'middle', 2_000, 60_000);
      assert.deepEqual(await store.due(k, 2_000, 10), ['early', 'middle']);
      assert.deepEqual(await store.due(k, 5_000, 2), ['early', 'middle']);
      await store.schedule(k, 'early', 4_000, 60_000);
      assert.deepEqual(await store.due(k, 5_000, 10), ['middle', 'late', 'early']);
      await store.unschedule(k, 'middle');
      await store.unschedule(k, 'never-there');
      assert.deepEqual(await store.due(k, 5_000, 10), ['late', 'early']);
      assert.deepEqual(await store.due(key(), 5_000, 10), []);
    });

    it('a schedule expires ttlMs after its last change', async () => {
      const k = key();
      await store.schedule(k, 'm', 1, 150);
      await sleep(300);
      assert.deepEqual(await store.due(k, 10, 10), []);
    });

    it('ping answers', async () => {
      await store.ping();
    });
  });
}
