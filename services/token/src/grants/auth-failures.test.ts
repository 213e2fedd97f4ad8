import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { MemoryKeyValueStore } from '@sesame/kv';
import { type Logger, OAuthError } from '@sesame/platform';
import { AuthFailureThrottle } from './auth-failures';

function setup(limits: { perClientAndIp: number; perIp: number }) {
  let now = 1_700_000_000_000;
  const kv = new MemoryKeyValueStore(() => now);
  return {
    kv,
    throttle: new AuthFailureThrottle(kv, { ...limits, windowMs: 60_000 }),
    advance: (ms: number) => {
      now += ms;
    },
  };
}

/** One attempt that reaches the Directory and fails. */
async function fail(throttle: AuthFailureThrottle, clientId: string, ip: string) {
  await (await throttle.reserve(clientId, ip)).failed();
}

const refusedWith429 = (retryAfter: string) => (err: unknown) =>
  err instanceof OAuthError &&
  err.status === 429 &&
  err.code === 'temporarily_unavailable' &&
  err.headers?.['Retry-After'] === retryAfter;

describe('AuthFailureThrottle', () => {
  it('refuses a (client, IP) pair once it reached its failures, with the rest of the window as Retry-After', async () => {
    const { throttle, advance } = setup({ perClientAndIp: 3, perIp: 0 });
    for (let i = 0; i < 3; i++) await fail(throttle, 'client-a', '192.0.2.1');
    advance(15_000);
    await assert.rejects(throttle.assertAllowed('client-a', '192.0.2.1'), refusedWith429('45'));
    await assert.rejects(throttle.reserve('client-a', '192.0.2.1'), refusedWith429('45'));
    // Other callers of the same client, and the same caller with another client, are not affected.
    await throttle.assertAllowed('client-a', '192.0.2.2');
    await throttle.assertAllowed('client-b', '192.0.2.1');
    advance(45_000);
    await throttle.assertAllowed('client-a', '192.0.2.1');
  });

  it('logs once, when a caller reaches a limit', async () => {
    const logged: unknown[] = [];
    const kv = new MemoryKeyValueStore();
    const logger = { warn: (obj: unknown) => logged.push(obj) } as unknown as Logger;
    const throttle = new AuthFailureThrottle(kv, { perClientAndIp: 2, perIp: 0, windowMs: 60_000 }, logger);
    for (let i = 0; i < 4; i++) await fail(throttle, 'client-a', '192.0.2.1').catch(() => undefined);
    assert.deepEqual(logged, [
      { clientId: 'client-a', clientIp: '192.0.2.1', limit: 'per-client-and-ip', windowMs: 60_000 },
    ]);
  });

  it("keeps a caller's failures counted while more than a thousand other callers come between", async () => {
    const { throttle } = setup({ perClientAndIp: 2, perIp: 0 });
    await fail(throttle, 'client-a', '192.0.2.1');
    for (let i = 0; i < 1100; i++) await throttle.assertAllowed(`client-${i}`, '192.0.2.9');
    await fail(throttle, 'client-a', '192.0.2.1');
    await assert.rejects(throttle.assertAllowed('client-a', '192.0.2.1'), refusedWith429('60'));
    await throttle.assertAllowed('client-a', '192.0.2.2');
  });

  it('refuses an IP that failed with many client ids, whatever client it tries next', async () => {
    const { throttle } = setup({ perClientAndIp: 100, perIp: 5 });
    for (let i = 0; i < 5; i++) await fail(throttle, `client-${i}`, '198.51.100.7');
    await assert.rejects(throttle.assertAllowed('client-new', '198.51.100.7'), refusedWith429('60'));
    await throttle.assertAllowed('client-new', '198.51.100.8');
  });

  it('counts nothing and refuses nothing when both limits are 0', async () => {
    const { throttle, kv } = setup({ perClientAndIp: 0, perIp: 0 });
    let writes = 0;
    kv.incr = async () => ++writes;
    for (let i = 0; i < 50; i++) await fail(throttle, 'client-a', '192.0.2.1');
    await throttle.assertAllowed('client-a', '192.0.2.1');
    assert.equal(writes, 0);
  });

  it('keeps raw client ids and addresses out of its keys', async () => {
    const keys: string[] = [];
    const { kv, throttle } = setup({ perClientAndIp: 3, perIp: 3 });
    const incr = kv.incr.bind(kv);
    kv.incr = async (key, ttl) => {
      keys.push(key);
      return incr(key, ttl);
    };
    await fail(throttle, 'client-secretive', '192.0.2.1');
    assert.equal(keys.length, 2);
    for (const key of keys) assert.ok(!key.includes('client-secretive') && !key.includes('192.0.2.1'), key);
  });
});
