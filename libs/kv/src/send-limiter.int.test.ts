import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { afterAll, describe, it } from '@jest/globals';
import { realServers } from '@sesame/testing';
import { RedisKeyValueStore } from './redis';
import { SendLimiter } from './send-limiter';

/** The limits hold across pods: two auth pods (two connections) share the same windows in Redis. */
describe('SendLimiter on Redis', () => {
  const namespace = `sesame:limiter-test-${randomUUID()}:`;
  const pods = [
    RedisKeyValueStore.connect(realServers().redisUrl, namespace),
    RedisKeyValueStore.connect(realServers().redisUrl, namespace),
  ];
  afterAll(() => Promise.all(pods.map((p) => p.close())));

  it('200 parallel SMS to one number from two pods: exactly 5 allowed; distinct numbers stop at the client limit', async () => {
    const settings = {
      destination: { limit: 5, windowMs: 900_000 },
      client: { limit: 40, windowMs: 900_000 },
    };
    const limiters = pods.map((kv) => new SendLimiter(kv, 'ciba_sms', settings));
    const one = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        limiters[i % 2]!.reserve({ destination: '+41790000001', client: 'c' }),
      ),
    );
    assert.equal(one.filter((d) => d.allowed).length, 5);
    const distinct = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        limiters[i % 2]!.reserve({ destination: `+41791${100000 + i}`, client: 'c' }),
      ),
    );
    assert.equal(distinct.filter((d) => d.allowed).length, 35);
    assert.ok(distinct.every((d) => d.allowed || d.dimension === 'client'));
  });
});
