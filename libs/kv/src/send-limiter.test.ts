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

  // The settings of a sign-in mail: 5 per (address, IP), 15 per (address, tenant), 30 per address, 8 for a proven session.
  const signIn = {
    destination_ip: { limit: 5, windowMs: 15 * MIN },
    destination_tenant: { limit: 15, windowMs: 15 * MIN },
    destination: { limit: 30, windowMs: 15 * MIN },
    ip: { limit: 100, windowMs: 15 * MIN },
    proven: { limit: 8, windowMs: 15 * MIN },
  };

  it('five requests for an address from IP A do not block it from IP B, nor A from another address', async () => {
    const limiter = new SendLimiter(new MemoryKeyValueStore(), 'signin_mail', signIn);
    const admin = { destination: 'admin@example.com', tenant: 't1' };
    for (let i = 0; i < 5; i++)
      assert.equal((await limiter.reserve({ ...admin, ip: '203.0.113.1' })).allowed, true);
    assert.deepEqual(await limiter.reserve({ ...admin, ip: '203.0.113.1' }), {
      allowed: false,
      dimension: 'destination_ip',
      retryAfterS: 900,
    });
    assert.deepEqual(await limiter.reserve({ ...admin, ip: '198.51.100.7' }), { allowed: true });
    assert.equal(
      (await limiter.reserve({ ...admin, destination: 'b@example.com', ip: '203.0.113.1' })).allowed,
      true,
    );
  });

  it("tenant X's messages to a number do not use up tenant Y's allowance for it", async () => {
    const limiter = new SendLimiter(new MemoryKeyValueStore(), 'ciba_sms', {
      destination_tenant: { limit: 5, windowMs: 15 * MIN },
      destination: { limit: 20, windowMs: 15 * MIN },
    });
    const x = await Promise.all(
      Array.from({ length: 10 }, () =>
        limiter.reserve({ destination: '+15550000001', tenant: 'x', ip: '192.0.2.1' }),
      ),
    );
    assert.equal(x.filter((d) => d.allowed).length, 5);
    assert.ok(x.every((d) => d.allowed || d.dimension === 'destination_tenant'));
    assert.deepEqual(await limiter.reserve({ destination: '+15550000001', tenant: 'y', ip: '192.0.2.1' }), {
      allowed: true,
    });
  });

  it('a distributed flood (one IP each, many tenants) stops at the per-address ceilings', async () => {
    const limiter = new SendLimiter(new MemoryKeyValueStore(), 'signin_mail', signIn);
    const oneTenant = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        limiter.reserve({ destination: 'admin@example.com', tenant: 't1', ip: `10.0.${i}.1` }),
      ),
    );
    assert.equal(oneTenant.filter((d) => d.allowed).length, 15);
    assert.ok(oneTenant.every((d) => d.allowed || d.dimension === 'destination_tenant'));
    const manyTenants = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        limiter.reserve({ destination: 'admin@example.com', tenant: `t${i + 2}`, ip: `10.1.${i}.1` }),
      ),
    );
    assert.equal(manyTenants.filter((d) => d.allowed).length, 15, 'the global ceiling of 30 is reached');
    assert.ok(manyTenants.every((d) => d.allowed || d.dimension === 'destination'));
  });

  it("a requester who proved the address is held by its own ceiling only, not by strangers' full windows", async () => {
    let now = 9_000_000;
    const limiter = new SendLimiter(new MemoryKeyValueStore(() => now), 'signin_mail', signIn, () => now);
    const admin = { destination: 'admin@example.com', tenant: 't1', ip: '203.0.113.1' };
    await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        limiter.reserve({ ...admin, ip: `10.2.${i}.1`, tenant: `t${i % 3}` }),
      ),
    );
    assert.equal((await limiter.reserve(admin)).allowed, false, 'strangers filled the address windows');
    assert.equal(await limiter.waitMs(admin), 900_000);
    assert.equal(await limiter.waitMs(admin, { proven: true }), 0);
    const own = [];
    for (let i = 0; i < 9; i++) own.push(await limiter.reserve(admin, { proven: true }));
    assert.equal(own.filter((d) => d.allowed).length, 8);
    assert.deepEqual(own.at(-1), { allowed: false, dimension: 'proven', retryAfterS: 900 });
    assert.equal(await limiter.waitMs(admin, { proven: true }), 900_000);
    // Its own sends took no place from anyone else: another tenant's proven session is not held.
    assert.equal((await limiter.reserve({ ...admin, tenant: 't9' }, { proven: true })).allowed, true);
    now += 15 * MIN;
    assert.equal(await limiter.waitMs(admin), 0);
  });
});
