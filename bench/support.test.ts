import { describe, expect, it } from '@jest/globals';
import { median, quantile } from './support';

describe('bench statistics', () => {
  it('takes the middle value of an odd count and the mean of the two middle values of an even count', () => {
    expect(median([0.31, 0.27, 0.46])).toBe(0.31);
    // Sorted: 0.25, 0.29, 0.31, 0.40: the two middle values are 0.29 and 0.31, not the upper one alone.
    expect(median([0.4, 0.29, 0.25, 0.31])).toBeCloseTo(0.3, 12);
    expect(median([7])).toBe(7);
  });

  it('does not reorder the sample it is given', () => {
    const rounds = [3, 1, 2, 0];
    median(rounds);
    quantile(rounds, 0.25);
    expect(rounds).toEqual([3, 1, 2, 0]);
  });

  it('reads quantiles by nearest rank', () => {
    const xs = [0.28, 0.33, 0.27, 0.3, 0.29, 0.34, 0.27, 0.46, 0.31, 0.27, 0.31, 0.34];
    expect(quantile(xs, 0.25)).toBe(0.27);
    expect(quantile(xs, 0.75)).toBe(0.33);
    expect(quantile(xs, 1)).toBe(0.46);
    expect(quantile([], 0.5)).toBeNaN();
  });
});
