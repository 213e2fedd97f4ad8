import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { MemoryKeyValueStore } from './memory';
import { SendLimiter, limitDecisions } from './send-limiter';

const MIN = 60_000;
const refusedBy = async (purpose: string, limit: string) =>
  (await limitDecisions().get()).values.find(
    (v) => v.labels.purpose === purpose && v.labels.outcome === 'refused' && v.labels.limit === limit,
  )?.value ?? 0;

describe('SendLimiter', () => {
  it('30 messages in a row to one number: only the limit is allowed, the rest name the destination', async () => {
    let now = 1_000_000;
    const limiter = new SendLimiter(
      new MemoryKeyValueStore(() => now),
      'ciba_sms',
      { destination: { limit: 5, windowMs: 15 * MIN }, client: { limit: 100, windowMs: 15 * MIN } },
      () => now,
    );
    const before = await refusedBy('ciba_sms', 'destination');
    const decisions = await Promise.all(
      Array.from({ length: 30 }, () => limiter.reserve({ destination: '+15550000001', client: 'c1' })),
    );
    assert.equal(decisions.filter((d) => d.allowed).length, 5);
    assert.deepEqual(decisions.at(-1), { allowed: false, dimension: 'destination', retryAfterS: 900 });
    assert.equal((await refusedBy('ciba_sms', 'destination')) - before, 25);
    // Sliding: 10 minutes later the window is still full; 15 minutes after the first, a place is free again.
    now += 10 * MIN;
    assert.deepEqual(await limiter.reserve({ destination: '+15550000001', client: 'c1' }), {
      allowed: false,
      dimension: 'destination',
      retryAfterS: 300,
    });
    now += 5 * MIN;
    assert.deepEqual(await limiter.reserve({ destination: '+15550000001', client: 'c1' }), { allowed: true });
  });

  it('distinct numbers from one client stop at the client limit; another client is not held', async () => {
    const now = 5_000_000;
    const limiter = new SendLimiter(
      new MemoryKeyValueStore(() => now),
      'ciba_sms',
      { destination: { limit: 5, windowMs: 15 * MIN }, client: { limit: 20, windowMs: 15 * MIN } },
      () => now,
    );
    const decisions = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        limiter.reserve({ destination: `+1555000${1000 + i}`, client: 'c1' }),
      ),
    );
    assert.equal(decisions.filter((d) => d.allowed).length, 20);
    assert.ok(decisions.every((d) => d.allowed || d.dimension === 'client'));
    assert.deepEqual(await limiter.reserve({ destination: '+15559999999', client: 'c2' }), { allowed: true });
  });

  it('limits only the dimensions it has a setting for and is given a value of', async () => {
    const limiter = new SendLimiter(new MemoryKeyValueStore(), 'activation_mail', {
      tenant: { limit: 2, windowMs: MIN },
    });
    assert.equal((await limiter.reserve({ destination: 'a@example.com', tenant: 't1' })).allowed, true);
    assert.equal((await limiter.reserve({ destination: 'a@example.com', tenant: 't1' })).allowed, true);
    assert.deepEqual(await limiter.reserve({ destination: 'b@example.com', tenant: 't1' }), {
      allowed: false,
      dimension: 'tenant',
      retryAfterS: 60,
    });
    assert.equal((await limiter.reserve({ destination: 'a@example.com' })).allowed, true);
  });
});
