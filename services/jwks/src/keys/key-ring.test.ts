import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import type { KeyTimings } from './key';
import { currentKey, planKeyRing, publishedKeys } from './key-ring';
import { fakeStoredKey } from './key.repository.contract';

const timings: KeyTimings = { rotationIntervalMs: 10_000, publishDelayMs: 1_000, retireAfterMs: 5_000 };
const T = 1_700_000_000_000;

describe('key ring plan (rotation state machine)', () => {
  it('bootstraps an active key of each use on an empty store, RS256 first', () => {
    const plan = planKeyRing([], T, timings);
    assert.deepEqual(plan.generate, [
      { use: 'sig', alg: 'RS256', generation: 1, status: 'active' },
      { use: 'enc', alg: 'RSA-OAEP-256', generation: 1, status: 'active' },
    ]);
    assert.deepEqual([plan.activate, plan.retire, plan.deleteExpired], [[], [], false]);
  });

  it('creates at most one key per use a round: PS256 then ES256 get the next sig generations', () => {
    const rs = fakeStoredKey('sig', 1, { status: 'active', createdAt: T, activatedAt: T });
    const enc = fakeStoredKey('enc', 1, { status: 'active', createdAt: T, activatedAt: T });
    assert.deepEqual(planKeyRing([rs, enc], T, timings).generate, [
      { use: 'sig', alg: 'PS256', generation: 2, status: 'active' },
    ]);
    const ps = fakeStoredKey('sig', 2, { alg: 'PS256', status: 'active', createdAt: T, activatedAt: T });
    assert.deepEqual(planKeyRing([rs, ps, enc], T, timings).generate, [
      { use: 'sig', alg: 'ES256', generation: 3, status: 'active' },
    ]);
  });

  it('rotates each sig alg on its own schedule, one new key per round, the generation shared by the use', () => {
    const rs = fakeStoredKey('sig', 1, { status: 'active', createdAt: T, activatedAt: T });
    const ps = fakeStoredKey('sig', 2, {
      alg: 'PS256',
      status: 'active',
      createdAt: T + 3_000,
      activatedAt: T + 3_000,
    });
    const es = fakeStoredKey('sig', 3, {
      alg: 'ES256',
      status: 'active',
      createdAt: T + 3_000,
      activatedAt: T + 3_000,
    });
    const enc = fakeStoredKey('enc', 1, { status: 'active', createdAt: T + 3_000, activatedAt: T + 3_000 });
    const first = planKeyRing([rs, ps, es, enc], T + 10_000, timings);
    assert.deepEqual(first.generate, [{ use: 'sig', alg: 'RS256', generation: 4, status: 'pending' }]);
    assert.equal(first.nextDueAt, T + 13_000, 'the PS256, ES256 and enc keys are due later');
    const rsNext = fakeStoredKey('sig', 4, { createdAt: T + 10_000 });
    const later = planKeyRing([rs, ps, es, enc, rsNext], T + 13_000, timings);
    assert.deepEqual(later.generate, [
      { use: 'sig', alg: 'PS256', generation: 5, status: 'pending' },
      { use: 'enc', alg: 'RSA-OAEP-256', generation: 2, status: 'pending' },
    ]);
    assert.deepEqual(later.activate, [rsNext.kid], 'the RS256 rotation goes on meanwhile');
  });

  it('plans nothing for fresh active keys and says when the next rotation is due', () => {
    const keys = [
      fakeStoredKey('sig', 1, { status: 'active', createdAt: T, activatedAt: T }),
      fakeStoredKey('sig', 2, { alg: 'PS256', status: 'active', createdAt: T, activatedAt: T }),
      fakeStoredKey('sig', 3, { alg: 'ES256', status: 'active', createdAt: T, activatedAt: T }),
      fakeStoredKey('enc', 1, { status: 'active', createdAt: T + 5, activatedAt: T + 5 }),
    ];
    const plan = planKeyRing(keys, T + 100, timings);
    assert.deepEqual(plan, {
      generate: [],
      activate: [],
      retire: [],
      deleteExpired: false,
      nextDueAt: T + 10_000,
    });
  });

  it('creates a pending key once the newest key is older than the rotation interval', () => {
    const keys = [fakeStoredKey('sig', 4, { status: 'active', createdAt: T, activatedAt: T })];
    assert.deepEqual(
      planKeyRing(keys, T + 9_999, timings).generate.filter((g) => g.alg === 'RS256'),
      [],
    );
    assert.deepEqual(planKeyRing(keys, T + 10_000, timings).generate, [
      { use: 'sig', alg: 'RS256', generation: 5, status: 'pending' },
      { use: 'enc', alg: 'RSA-OAEP-256', generation: 1, status: 'active' },
    ]);
  });

  it('never rotates on schedule when the interval is 0', () => {
    const keys = [fakeStoredKey('sig', 1, { status: 'active', createdAt: T, activatedAt: T })];
    const plan = planKeyRing(keys, T + 1e12, { ...timings, rotationIntervalMs: 0 });
    assert.deepEqual(
      plan.generate.filter((g) => g.alg === 'RS256'),
      [],
    );
  });

  it('keeps a pending key unused until the publish delay has passed, then activates it', () => {
    const active = fakeStoredKey('sig', 1, { status: 'active', createdAt: T, activatedAt: T });
    const pending = fakeStoredKey('sig', 2, { createdAt: T + 20_000 });
    const before = planKeyRing([active, pending], T + 20_999, timings);
    assert.deepEqual(before.activate, []);
    assert.equal(before.nextDueAt, T + 21_000);
    assert.deepEqual(
      before.generate.filter((g) => g.alg === 'RS256'),
      [],
      'no second rotation while one is pending',
    );
    assert.deepEqual(planKeyRing([active, pending], T + 21_000, timings).activate, [pending.kid]);
  });

  it('activates a pending key at once when no key of its use is active (nothing could sign otherwise)', () => {
    const pending = fakeStoredKey('sig', 2, { createdAt: T });
    assert.deepEqual(planKeyRing([pending], T, timings).activate, [pending.kid]);
  });

  it('retires every active key but the most recently activated, published for retireAfterMs more', () => {
    const old = fakeStoredKey('sig', 1, { status: 'active', createdAt: T, activatedAt: T });
    const next = fakeStoredKey('sig', 2, { status: 'active', createdAt: T + 1, activatedAt: T + 2_000 });
    const plan = planKeyRing([old, next], T + 3_000, timings);
    assert.deepEqual(plan.retire, [{ kid: old.kid, retireAfter: T + 8_000 }]);
    assert.equal(currentKey([old, next], 'sig')?.kid, next.kid);
  });

  it('deletes retired keys once retireAfter has passed, and publishes them until then', () => {
    const retired = fakeStoredKey('sig', 1, {
      status: 'retired',
      activatedAt: T,
      retiredAt: T + 1,
      retireAfter: T + 5_000,
    });
    const active = fakeStoredKey('sig', 2, { status: 'active', createdAt: T + 1, activatedAt: T + 1 });
    assert.equal(planKeyRing([retired, active], T + 4_999, timings).deleteExpired, false);
    assert.deepEqual(
      publishedKeys([retired, active], T + 4_999).map((k) => k.kid),
      [active.kid, retired.kid],
    );
    assert.equal(planKeyRing([retired, active], T + 5_000, timings).deleteExpired, true);
    assert.deepEqual(
      publishedKeys([retired, active], T + 5_000).map((k) => k.kid),
      [active.kid],
    );
  });

  it('publishes sig keys first, each use led by its current key, then pending and retired newest first', () => {
    const encActive = fakeStoredKey('enc', 1, { status: 'active', activatedAt: T });
    const sigRetired = fakeStoredKey('sig', 1, { status: 'retired', activatedAt: T, retireAfter: T + 9_000 });
    const sigActive = fakeStoredKey('sig', 2, { status: 'active', activatedAt: T + 1 });
    const sigPending = fakeStoredKey('sig', 3);
    const order = publishedKeys([encActive, sigRetired, sigActive, sigPending], T + 2).map((k) => k.kid);
    assert.deepEqual(order, [sigActive.kid, sigPending.kid, sigRetired.kid, encActive.kid]);
  });
});
