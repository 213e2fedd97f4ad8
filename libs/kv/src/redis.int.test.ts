import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { afterAll, describe, it } from '@jest/globals';
import { realServers } from '@sesame/testing';
import { keyValueStoreContract } from './contract';
import { pendingEntriesContract } from './pending-contract';
import { RedisKeyValueStore } from './redis';
import { createRedisClient } from './redis-client';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

keyValueStoreContract('redis', () =>
  RedisKeyValueStore.connect(realServers().redisUrl, 'sesame:contract-test:'),
);
pendingEntriesContract('redis', () =>
  RedisKeyValueStore.connect(realServers().redisUrl, 'sesame:contract-test:'),
);

describe('RedisKeyValueStore signals between processes', () => {
  const url = realServers().redisUrl;
  const pods = [
    RedisKeyValueStore.connect(url, 'sesame:signal-test:'),
    RedisKeyValueStore.connect(url, 'sesame:signal-test:'),
  ] as const;
  const otherOwner = RedisKeyValueStore.connect(url, 'sesame:signal-test-other:');
  afterAll(() => Promise.all([...pods, otherOwner].map((s) => s.close())));

  it("reaches a listener on another connection of the same namespace, and not another owner's", async () => {
    const channel = `flow:${randomUUID()}`;
    let heard = 0;
    let heardByOther = 0;
    await pods[1].listen(channel, () => {
      heard++;
    });
    await otherOwner.listen(channel, () => {
      heardByOther++;
    });
    await pods[0].signal(channel);
    for (let waited = 0; heard === 0 && waited < 2_000; waited += 10) await sleep(10);
    await sleep(100);
    assert.equal(heard, 1);
    assert.equal(heardByOther, 0);
  });

  it('subscribes while a channel has listeners, and close ends the subscription with the store', async () => {
    const observer = createRedisClient(url);
    const subscribers = async (channel: string) =>
      Number(((await observer.pubsub('NUMSUB', `sesame:signal-test:${channel}`)) as [string, number])[1]);
    try {
      const store = RedisKeyValueStore.connect(url, 'sesame:signal-test:');
      const [left, kept] = [`flow:${randomUUID()}`, `flow:${randomUUID()}`];
      const stop = await store.listen(left, () => undefined);
      await store.listen(kept, () => undefined);
      assert.equal(await subscribers(left), 1);
      stop();
      for (let waited = 0; (await subscribers(left)) > 0 && waited < 2_000; waited += 10) await sleep(10);
      assert.equal(await subscribers(left), 0);
      assert.equal(await subscribers(kept), 1);
      await store.close();
      for (let waited = 0; (await subscribers(kept)) > 0 && waited < 2_000; waited += 10) await sleep(10);
      assert.equal(await subscribers(kept), 0);
    } finally {
      await observer.quit();
    }
  });
});
