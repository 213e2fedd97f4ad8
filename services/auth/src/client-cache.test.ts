import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { MemoryEventBus, evictOnAdminEvents } from '@sesame/events';
import { createLogger } from '@sesame/platform';
import { topics } from '@sesame/proto';
import { eventually } from '@sesame/testing';
import { cacheClients, clientCacheEvictions } from './client-cache';
import { client } from './testing/hosted-test-client';

function counting(known = new Map([[client.clientId, client]])) {
  const calls: string[] = [];
  const inner = async (id: string) => {
    calls.push(id);
    return known.get(id);
  };
  return { inner, calls, known };
}

describe('cacheClients', () => {
  it('answers a found client from memory within the TTL, and asks the Directory again after it', async () => {
    let now = 0;
    const { inner, calls } = counting();
    const cache = cacheClients(inner, 5000, () => now);
    assert.equal(await cache.getClient(client.clientId), client);
    assert.equal(await cache.getClient(client.clientId), client);
    assert.equal(calls.length, 1);
    now = 5000;
    await cache.getClient(client.clientId);
    assert.equal(calls.length, 2);
  });

  it('never remembers an unknown client_id: an app created a moment later is found at once', async () => {
    const { inner, calls, known } = counting(new Map());
    const cache = cacheClients(inner, 5000);
    assert.equal(await cache.getClient('client-1'), undefined);
    known.set('client-1', client);
    assert.equal(await cache.getClient('client-1'), client);
    assert.equal(calls.length, 2);
  });

  it('shares one Directory call among concurrent lookups, and with TTL 0 asks every time', async () => {
    const { inner, calls } = counting();
    const cache = cacheClients(inner, 5000);
    await Promise.all([1, 2, 3].map(() => cache.getClient(client.clientId)));
    assert.equal(calls.length, 1);
    const uncached = cacheClients(inner, 0);
    await uncached.getClient(client.clientId);
    await uncached.getClient(client.clientId);
    assert.equal(calls.length, 3);
  });

  it('forgets everything on an admin event, and keeps no answer that was asked for before it', async () => {
    const bus = new MemoryEventBus();
    const { inner, calls } = counting();
    const cache = cacheClients(inner, 60_000);
    const consumer = await evictOnAdminEvents(
      bus,
      cache,
      createLogger({ service: 'auth', level: 'silent' }),
      clientCacheEvictions,
    );
    try {
      await cache.getClient(client.clientId);
      await bus.publisher.publish(topics.adminEvents, [{ key: 't', value: new Uint8Array() }]);
      const asked = await eventually(
        async () => {
          await cache.getClient(client.clientId);
          return calls.length;
        },
        (n) => n > 1,
        2000,
      );
      assert.ok(asked > 1, 'the admin event emptied the cache');
      const before = calls.length;
      cache.clear();
      const inFlight = cache.getClient(client.clientId);
      cache.clear();
      await inFlight;
      await cache.getClient(client.clientId);
      assert.equal(calls.length, before + 2, 'the answer that raced the clear was not kept');
    } finally {
      await consumer.stop();
      await bus.close();
    }
  });

  it("opens a consumer group of this pod's own that is gone once the consumer stops", async () => {
    const bus = new MemoryEventBus();
    const consumer = await evictOnAdminEvents(
      bus,
      cacheClients(counting().inner, 60_000),
      createLogger({ service: 'auth', level: 'silent' }),
      clientCacheEvictions,
    );
    await eventually(
      async () => bus.groups(),
      (groups) => groups.length === 1,
      2000,
    );
    assert.match(bus.groups()[0]!, /^sesame-auth-client-cache\./);
    await consumer.stop();
    assert.deepEqual(bus.groups(), [], 'no group left behind');
    await bus.close();
  });
});
