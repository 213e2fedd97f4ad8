import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { MemoryKeyValueStore } from '@sesame/kv';
import { EmailCodes } from './email-codes';
import { throttleOnTestClock } from './send-throttle-test-support';

const opts = { ttlMs: 600_000, maxAttempts: 5, hashKey: 'test-key-test-key-test-key-test-key' };

describe('why an email code is dead', () => {
  it('is "locked out" after the wrong tries used the limit, until a new code is issued', async () => {
    const codes = new EmailCodes(new MemoryKeyValueStore(), opts);
    const code = await codes.issue('flow-l', 'ann@example.com');
    const wrong = code === '000000' ? '000001' : '000000';
    for (let i = 0; i < 4; i++) await codes.check('flow-l', wrong);
    assert.equal(await codes.lockedOut('flow-l'), false, 'one try is left');
    await codes.check('flow-l', wrong);
    assert.equal(await codes.lockedOut('flow-l'), true);
    assert.deepEqual(await codes.check('flow-l', code), { result: 'dead' });
    assert.equal(await codes.lockedOut('flow-l'), true, 'the right code after it is told the same');
    await codes.issue('flow-l', 'ann@example.com');
    assert.equal(await codes.lockedOut('flow-l'), false, 'a new code starts over');
  });

  it('is not locked out when it expired or was used', async () => {
    let now = 0;
    const codes = new EmailCodes(new MemoryKeyValueStore(() => now), opts);
    const used = await codes.issue('flow-u', 'ann@example.com');
    await codes.check('flow-u', used);
    assert.deepEqual(await codes.check('flow-u', used), { result: 'dead' });
    assert.equal(await codes.lockedOut('flow-u'), false);
    await codes.issue('flow-e', 'ann@example.com');
    now = opts.ttlMs;
    assert.equal(await codes.lockedOut('flow-e'), false);
  });
});

describe('the resend wait', () => {
  it('is 0 while the limits have room, then the rest of the fullest window; another IP does not wait', async () => {
    const { throttle, at } = throttleOnTestClock({ perAddress: 2, perIp: 10, windowMs: 60_000 });
    assert.equal(await throttle.waitMs('ann@example.com', '10.0.0.1'), 0);
    await throttle.reserve('ann@example.com', '10.0.0.1');
    assert.equal(await throttle.waitMs('ann@example.com', '10.0.0.1'), 0);
    at(15_000);
    await throttle.reserve('Ann@example.com', '10.0.0.1');
    assert.equal(await throttle.waitMs('ann@example.com', '10.0.0.1'), 45_000);
    assert.equal(await throttle.waitMs('ann@example.com', '10.0.0.9'), 0, 'the address from another IP');
    at(60_000);
    assert.equal(await throttle.waitMs('ann@example.com', '10.0.0.1'), 0);
  });
});
