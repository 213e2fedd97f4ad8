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

  it('per (address, IP) and (address, tenant) under a global ceiling, across two pods; a proven session is apart', async () => {
    const window = { windowMs: 900_000 };
    const settings = {
      destination_ip: { limit: 5, ...window },
      destination_tenant: { limit: 15, ...window },
      destination: { limit: 30, ...window },
      proven: { limit: 8, ...window },
    };
    const limiters = pods.map((kv) => new SendLimiter(kv, 'signin_mail', settings));
    const admin = { destination: `admin-${randomUUID()}@example.com`, tenant: 't1' };
    const fromA = await Promise.all(
      Array.from({ length: 20 }, (_, i) => limiters[i % 2]!.reserve({ ...admin, ip: '203.0.113.1' })),
    );
    assert.equal(fromA.filter((d) => d.allowed).length, 5);
    assert.deepEqual(await limiters[1]!.reserve({ ...admin, ip: '198.51.100.7' }), { allowed: true });
    const flood = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        limiters[i % 2]!.reserve({ ...admin, tenant: `t${i % 4}`, ip: `10.9.${i}.1` }),
      ),
    );
    assert.equal(flood.filter((d) => d.allowed).length, 24, 'the global ceiling of 30 holds');
    assert.ok((await limiters[0]!.waitMs({ ...admin, ip: '192.0.2.99' })) > 899_000);
    assert.equal(await limiters[1]!.waitMs({ ...admin, ip: '192.0.2.99' }, { proven: true }), 0);
    assert.deepEqual(await limiters[0]!.reserve({ ...admin, ip: '192.0.2.99' }, { proven: true }), {
      allowed: true,
    });
  });
});
