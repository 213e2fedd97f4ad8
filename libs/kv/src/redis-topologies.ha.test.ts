// The KV contract on the HA topologies (npm run test:ha): the same behaviour through a Sentinel-managed primary
// and through a 3-primary Redis Cluster as on one server (redis.int.test.ts).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { afterAll, describe, it } from '@jest/globals';
import { haRedisServers } from '@sesame/testing';
import { Cluster } from 'ioredis';
import { keyValueStoreContract } from './contract';
import { pendingEntriesContract } from './pending-contract';
import { RedisKeyValueStore } from './redis';
import { createRedisClient } from './redis-client';
import { SendLimiter } from './send-limiter';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const { sentinelUrl, clusterUrl } = haRedisServers();

keyValueStoreContract('redis sentinel', () =>
  RedisKeyValueStore.connect(sentinelUrl, 'sesame:contract-test:'),
);
keyValueStoreContract('redis cluster', () => RedisKeyValueStore.connect(clusterUrl, 'sesame:contract-test:'));
// The pending pools' scripts name another group's set from the pool's hash tag: one slot on the Cluster.
pendingEntriesContract('redis sentinel', () =>
  RedisKeyValueStore.connect(sentinelUrl, 'sesame:contract-test:'),
);
pendingEntriesContract('redis cluster', () =>
  RedisKeyValueStore.connect(clusterUrl, 'sesame:contract-test:'),
);

describe('the client factory on the HA topologies', () => {
  const sentinel = createRedisClient(sentinelUrl);
  const cluster = createRedisClient(clusterUrl);
  afterAll(async () => {
    await Promise.all([sentinel.quit(), cluster.quit()]);
    sentinel.disconnect();
  });

  it('reaches the primary Sentinel names, which has a replica', async () => {
    const info = await sentinel.info('replication');
    assert.match(info, /role:master/);
    assert.match(info, /connected_slaves:1/);
  });

  it('spreads keys over the three primaries of the Cluster', async () => {
    assert.ok(cluster instanceof Cluster);
    const keys = Array.from({ length: 30 }, (_, i) => `sesame:spread-test:${randomUUID()}:${i}`);
    await Promise.all(keys.map((k) => cluster.set(k, '1', 'PX', 10_000)));
    const owners = new Set<string>();
    for (const node of cluster.nodes('master'))
      if ((await node.dbsize()) > 0) owners.add(String(node.options.port));
    assert.equal(owners.size, 3);
  });
});

describe('multi-key operations on the Cluster', () => {
  const store = RedisKeyValueStore.connect(clusterUrl, `sesame:cluster-test-${randomUUID()}:`);
  afterAll(() => store.close());

  it('admits over windows whose keys would hash to different slots (one hash tag per owner)', async () => {
    // Without the tag these two keys live on different primaries and the script fails with CROSSSLOT.
    const windows = [
      { key: 'send:a', limit: 1, windowMs: 60_000 },
      { key: 'send:b', limit: 2, windowMs: 60_000 },
    ];
    const t = Date.now();
    assert.deepEqual(await store.admit(windows, t), { admitted: true });
    assert.deepEqual(await store.admit(windows, t + 1), {
      admitted: false,
      blocked: 0,
      retryAfterMs: 59_999,
    });
    assert.equal(await store.admissionWaitMs(windows, t + 2), 59_998);
  });

  it('holds SendLimiter across two pods on the Cluster: 40 parallel SMS to one number, exactly 5 sent', async () => {
    const namespace = `sesame:limiter-${randomUUID()}:`;
    const pods = [0, 1].map(() => RedisKeyValueStore.connect(clusterUrl, namespace));
    try {
      const settings = {
        destination: { limit: 5, windowMs: 900_000 },
        client: { limit: 40, windowMs: 900_000 },
      };
      const [one, two] = pods.map((kv) => new SendLimiter(kv, 'ciba_sms', settings));
      const answers = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          (i % 2 ? one! : two!).reserve({ destination: '+41790000001', client: 'c' }),
        ),
      );
      assert.equal(answers.filter((d) => d.allowed).length, 5);
    } finally {
      await Promise.all(pods.map((p) => p.close()));
    }
  });

  it('reads getMany across slots', async () => {
    await store.set('x', '1', { ttlMs: 10_000 });
    await store.set('y', '2', { ttlMs: 10_000 });
    assert.deepEqual(await store.getMany(['x', 'missing', 'y']), ['1', null, '2']);
  });

  it('carries signals between two connections of the same namespace', async () => {
    const ns = `sesame:cluster-signal-${randomUUID()}:`;
    const [a, b] = [RedisKeyValueStore.connect(clusterUrl, ns), RedisKeyValueStore.connect(clusterUrl, ns)];
    try {
      let heard = 0;
      await b.listen('flow:1', () => {
        heard++;
      });
      await a.signal('flow:1');
      for (let waited = 0; heard === 0 && waited < 2_000; waited += 10) await sleep(10);
      assert.equal(heard, 1);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
