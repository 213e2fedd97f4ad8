import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { flowIds, newFlowId } from './flow-id';

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const msOf = (id: string) => Number.parseInt(id.replaceAll('-', '').slice(0, 12), 16);
/** The 74 random bits of an id, as a string of 0s and 1s: rand_a (12 bits), then rand_b (62 bits). */
const randomBitsOf = (id: string) => {
  const bits = [...Buffer.from(id.replaceAll('-', ''), 'hex')]
    .map((b) => b.toString(2).padStart(8, '0'))
    .join('');
  return bits.slice(52, 64) + bits.slice(66);
};

describe('flow ids (UUID version 7)', () => {
  it('are version 7, variant 10, and start with the given time in milliseconds', () => {
    const next = flowIds();
    const at = Date.UTC(2026, 11, 1, 8, 30, 0, 123);
    const id = next(at);
    assert.match(id, V7);
    assert.equal(msOf(id), at);
    assert.equal(
      id.slice(0, 13),
      `${at.toString(16).padStart(12, '0').slice(0, 8)}-${at.toString(16).slice(-4)}`,
    );
    const now = Date.now();
    const fresh = newFlowId();
    assert.match(fresh, V7);
    assert.ok(msOf(fresh) >= now && msOf(fresh) <= Date.now(), `${msOf(fresh)} is not now`);
  });

  it('sort as strings in the order of their times', () => {
    const next = flowIds();
    const times = [0, 1, 255, 256, 65_535, 65_536, 1_700_000_000_000, 1_700_000_000_001, 2 ** 48 - 1];
    const ids = times.map((t) => next(t));
    assert.deepEqual([...ids].sort(), ids);
    assert.deepEqual(ids.map(msOf), times);
  });

  it('keep every one of their 74 random bits random, across refills of the pool, within one millisecond', () => {
    const next = flowIds();
    const ids = Array.from({ length: 3000 }, () => next(1_764_578_000_000));
    for (const id of ids) assert.match(id, V7);
    assert.equal(new Set(ids).size, ids.length);
    const randoms = ids.map(randomBitsOf);
    assert.equal(new Set(randoms).size, ids.length);
    // Each of the 74 positions is 1 in about half of the ids (3000 draws: 1,500 ± 27; 1,300..1,700 is over 7
    // standard deviations either way), so no bit is fixed, copied from the time or reused from another id.
    for (let bit = 0; bit < 74; bit++) {
      const ones = randoms.filter((r) => r[bit] === '1').length;
      assert.ok(ones > 1300 && ones < 1700, `random bit ${bit} was 1 in ${ones} of 3000 ids`);
    }
  });

  it('clamp a time outside 48 bits instead of writing past it', () => {
    const next = flowIds();
    assert.equal(msOf(next(-5)), 0);
    assert.equal(msOf(next(2 ** 50)), 2 ** 48 - 1);
    assert.equal(msOf(next(1.9)), 1);
  });
});
