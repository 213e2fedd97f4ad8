import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { timeFrame, timeFrames } from './time-frame';

const at = (iso: string) => Date.parse(iso);
const HOUR = 3600_000;
const now = at('2025-03-15T10:00:00.000Z');

describe('timeFrame (UTC)', () => {
  it('answers Last 24 hours up to exactly 24 hours back, and for instants in the future (clock skew)', () => {
    assert.equal(timeFrame(now, now), 'Last 24 hours');
    assert.equal(timeFrame(now - 24 * HOUR, now), 'Last 24 hours');
    assert.equal(timeFrame(now + 5000, now), 'Last 24 hours');
  });

  it('answers Last 7 days one millisecond past 24 hours', () => {
    assert.equal(timeFrame(now - 24 * HOUR - 1, now), 'Last 7 days');
  });

  it('counts the 7 and 28 day frames in UTC calendar days: today and the 6 (27) UTC dates before it', () => {
    assert.equal(timeFrame(at('2025-03-09T00:00:00.000Z'), now), 'Last 7 days'); // 6 dates back, first ms
    assert.equal(timeFrame(at('2025-03-08T23:59:59.999Z'), now), 'Last 28 days'); // 7 dates back, last ms
    assert.equal(timeFrame(at('2025-02-16T00:00:00.000Z'), now), 'Last 28 days'); // 27 dates back
    assert.equal(timeFrame(at('2025-02-15T23:59:59.999Z'), now), 'Over 28 days ago'); // 28 dates back
    assert.equal(timeFrame(0, now), 'Over 28 days ago');
  });

  it('uses the UTC date, not elapsed time: just after UTC midnight, 6 dates back is still within 7 days', () => {
    const justAfterMidnight = at('2025-03-15T00:00:01.000Z');
    // 6 days + 23h59m elapsed, but dated 2025-03-09 UTC: 6 dates back.
    assert.equal(timeFrame(at('2025-03-09T00:00:02.000Z'), justAfterMidnight), 'Last 7 days');
    // Dated 2025-03-08 UTC, 7 dates back, though less than 7 x 24 h elapsed.
    assert.equal(timeFrame(at('2025-03-08T23:59:59.000Z'), justAfterMidnight), 'Last 28 days');
  });

  it('only ever answers one of the four allowed strings', () => {
    for (let back = -2 * HOUR; back < 60 * 24 * HOUR; back += 7 * HOUR) {
      assert.ok(timeFrames.includes(timeFrame(now - back, now)));
    }
  });
});
