import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { MemoryKeyValueStore } from '@sesame/kv';
import { EmailCodes } from './email-codes';
import { MagicLinks } from './magic-links';
import { throttleOnTestClock } from './send-throttle-test-support';

const opts = { ttlMs: 600_000, maxAttempts: 5, hashKey: 'test-key-test-key-test-key-test-key' };

describe('email one-time codes', () => {
  it('are 6 digits, stored only as a keyed hash, and work exactly once', async () => {
    const kv = new MemoryKeyValueStore();
    const codes = new EmailCodes(kv, opts);
    const code = await codes.issue('flow-1', 'ann@example.com');
    assert.match(code, /^\d{6}$/);
    const stored = await kv.get('otp:flow-1');
    assert.ok(stored && !stored.includes(code), 'the code itself is not stored');
    assert.deepEqual(await codes.check('flow-1', code), { result: 'ok', email: 'ann@example.com' });
    assert.deepEqual(await codes.check('flow-1', code), { result: 'dead' });
  });

  it('die after 5 wrong tries: the right code no longer works', async () => {
    const codes = new EmailCodes(new MemoryKeyValueStore(), opts);
    const code = await codes.issue('flow-2', 'ann@example.com');
    const wrong = code === '000000' ? '000001' : '000000';
    for (let left = 4; left >= 1; left--) {
      assert.deepEqual(await codes.check('flow-2', wrong), { result: 'wrong', attemptsLeft: left });
    }
    assert.deepEqual(await codes.check('flow-2', wrong), { result: 'dead' });
    assert.deepEqual(await codes.check('flow-2', code), { result: 'dead' });
  });

  it('count parallel guesses before comparing: 50 at once get at most 5 comparisons', async () => {
    const codes = new EmailCodes(new MemoryKeyValueStore(), opts);
    const code = await codes.issue('flow-3', 'ann@example.com');
    const guesses = Array.from({ length: 50 }, (_, i) =>
      String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0'),
    );
    const results = await Promise.all(guesses.map((g) => codes.check('flow-3', g)));
    assert.equal(results.filter((r) => r.result === 'wrong').length, 4);
    assert.deepEqual(await codes.check('flow-3', code), { result: 'dead' });
  });

  it('refuse malformed input as a wrong try, and expire with their TTL', async () => {
    let now = 0;
    const codes = new EmailCodes(new MemoryKeyValueStore(() => now), opts);
    const code = await codes.issue('flow-4', 'ann@example.com');
    assert.deepEqual(await codes.check('flow-4', 'abcdef'), { result: 'wrong', attemptsLeft: 4 });
    now = opts.ttlMs;
    assert.deepEqual(await codes.check('flow-4', code), { result: 'dead' });
  });

  it('a new code replaces the last and resets the tries', async () => {
    const codes = new EmailCodes(new MemoryKeyValueStore(), opts);
    const first = await codes.issue('flow-5', 'ann@example.com');
    await codes.check('flow-5', first === '000000' ? '000001' : '000000');
    const second = await codes.issue('flow-5', 'ann@example.com');
    if (first !== second)
      assert.deepEqual(await codes.check('flow-5', first), { result: 'wrong', attemptsLeft: 4 });
    assert.equal((await codes.check('flow-5', second)).result, 'ok');
  });
});

describe('magic links', () => {
  it('carry 256 random bits, are stored hashed, can be looked at, and are consumed once', async () => {
    const kv = new MemoryKeyValueStore();
    const links = new MagicLinks(kv, { ttlMs: 900_000, memoryMs: 1_800_000 });
    const token = await links.issue('flow-a', 'memo-a');
    assert.equal(Buffer.from(token, 'base64url').length, 32);
    assert.deepEqual(await links.lookup(token), { state: 'valid', flowId: 'flow-a' });
    assert.deepEqual(
      await links.lookup(token),
      { state: 'valid', flowId: 'flow-a' },
      'looking spends nothing',
    );
    assert.equal(await links.consume(token), 'flow-a');
    assert.equal(await links.consume(token), undefined);
    assert.deepEqual(await links.lookup(token), { state: 'spent', flowId: 'flow-a', memo: 'memo-a' });
  });

  it('expire after their TTL but are still recognised as spent, and unknown tokens are unknown', async () => {
    let now = 0;
    const links = new MagicLinks(new MemoryKeyValueStore(() => now), { ttlMs: 900_000, memoryMs: 1_800_000 });
    const token = await links.issue('flow-b');
    now = 900_000;
    assert.equal(await links.consume(token), undefined);
    assert.deepEqual(await links.lookup(token), { state: 'spent', flowId: 'flow-b', memo: '' });
    assert.deepEqual(await links.lookup('x'.repeat(43)), { state: 'unknown' });
    assert.deepEqual(await links.lookup('../../etc'), { state: 'unknown' });
  });
});

describe('sign-in mail throttle', () => {
  it('allows a few mails per address from an IP and per IP per window, then refuses until the window ends', async () => {
    const { throttle, at } = throttleOnTestClock({ perAddress: 3, perIp: 5, windowMs: 60_000 });
    const sent = await Promise.all(
      Array.from({ length: 5 }, () => throttle.reserve('Ann@example.com', '10.0.0.1')),
    );
    assert.deepEqual(sent, [true, true, true, false, false]);
    assert.equal(
      await throttle.reserve('ann@example.com', '10.0.0.1'),
      false,
      'the address is counted case-blind',
    );
    assert.equal(await throttle.reserve('ann@example.com', '10.0.0.2'), true, 'another IP is not held');
    // A refusal takes no place: 10.0.0.1 sent 3, so 2 more to other addresses, then its own limit.
    assert.equal(await throttle.reserve('bob@example.com', '10.0.0.1'), true);
    assert.equal(await throttle.reserve('cy@example.com', '10.0.0.1'), true);
    assert.equal(await throttle.reserve('dan@example.com', '10.0.0.1'), false, 'the IP is over its limit');
    at(60_000);
    assert.equal(await throttle.reserve('ann@example.com', '10.0.0.1'), true);
  });

  it('counts an address per tenant and over all, under a ceiling; a proven requester apart', async () => {
    const { throttle } = throttleOnTestClock({
      perAddress: 2,
      perIp: 100,
      perAddressTenant: 4,
      perAddressGlobal: 6,
      perProvenAddress: 3,
      windowMs: 60_000,
    });
    const ask = (ip: string, tenant: string, proven = false) =>
      throttle.reserve('ann@example.com', ip, { tenant, proven });
    const t1 = await Promise.all(Array.from({ length: 6 }, (_, i) => ask(`10.1.0.${i}`, 't1')));
    assert.equal(t1.filter(Boolean).length, 4, 'per address and tenant');
    const t2 = await Promise.all(Array.from({ length: 6 }, (_, i) => ask(`10.2.0.${i}`, 't2')));
    assert.equal(t2.filter(Boolean).length, 2, 'the ceiling over all tenants');
    assert.equal(await throttle.waitMs('ann@example.com', '10.3.0.1', { tenant: 't3' }), 60_000);
    assert.equal(await throttle.waitMs('ann@example.com', '10.3.0.1', { tenant: 't1', proven: true }), 0);
    const proven = [];
    for (let i = 0; i < 4; i++) proven.push(await ask('10.1.0.1', 't1', true));
    assert.deepEqual(proven, [true, true, true, false]);
  });
});
