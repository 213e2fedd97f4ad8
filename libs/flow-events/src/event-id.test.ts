import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { orderedEventIds } from './event-id';

describe('orderedEventIds', () => {
  it('sorts as strings in the order made, each with 96 random bits of its own, across refills of its pool', () => {
    const next = orderedEventIds();
    const ids = Array.from({ length: 1000 }, () => next());
    for (const id of ids) assert.match(id, /^[0-9a-z]{11}-[A-Za-z0-9_-]{16}$/);
    assert.equal(ids[0]!.slice(0, 12), '00000000000-');
    assert.equal(ids[999]!.slice(0, 12), `${(999).toString(36).padStart(11, '0')}-`);
    assert.deepEqual([...ids].sort(), ids);
    const randoms = ids.map((id) => id.slice(12));
    assert.equal(new Set(randoms).size, ids.length);
    // Every random part is 12 bytes: no id reuses bytes another id had (no overlap, no zero tail of the pool).
    const bytes = randoms.map((r) => Buffer.from(r, 'base64url'));
    for (const b of bytes) assert.equal(b.length, 12);
    assert.ok(bytes.every((b) => !b.equals(Buffer.alloc(12))));
  });

  it('two generators (two processes) start at the same sequence number with different random parts', () => {
    const [a, b] = [orderedEventIds()(), orderedEventIds()()];
    assert.equal(a.slice(0, 12), b.slice(0, 12));
    assert.notEqual(a, b);
  });
});
