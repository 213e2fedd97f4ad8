import type { Histogram } from 'prom-client';

/** What prom-client (15) keeps per label set of a histogram, in its `hashMap`. */
interface Series {
  labels: Record<string, unknown>;
  bucketValues: Record<string, number>;
  sum: number;
  count: number;
}

interface HistogramInternals {
  hashMap?: Record<string, Series>;
  upperBounds?: readonly number[];
  enableExemplars?: boolean;
}

export interface Observer {
  observe(value: number): void;
}

/** Whether `series` is what prom-client keeps for `labels` under `bounds` (else the public path is kept). */
function isSeriesOf(series: Series, labels: Record<string, string>, bounds: readonly number[]): boolean {
  if (typeof series !== 'object' || series === null) return false;
  if (typeof series.sum !== 'number' || typeof series.count !== 'number') return false;
  if (typeof series.bucketValues !== 'object' || series.bucketValues === null) return false;
  if (!bounds.every((bound) => typeof series.bucketValues[bound] === 'number')) return false;
  const names = Object.keys(labels);
  return (
    typeof series.labels === 'object' &&
    Object.keys(series.labels).length === names.length &&
    names.every((name) => String(series.labels[name]) === labels[name])
  );
}

/**
 * One label set of a histogram, for the hottest answers (fast routes, raw routes): observing through
 * prom-client's `labels(…).observe` validates the labels and builds their hash string again on every call
 * (0.4–0.7 µs, the largest cost of a /jwks answer that bare node:http does not have; docs/performance.md).
 * Here the labels are validated once, by `labels()`, and the series prom-client created for them is found
 * once; each observation then adds to that series exactly as prom-client's own observe does (sum, count, the
 * first bucket whose bound is ≥ the value), so the exposition is the same, number for number. If the series
 * is replaced (`reset()`, `remove()`) the next observation goes through the public path and finds it again;
 * a histogram that does not keep its series so (exemplars, another prom-client) always takes the public path.
 */
export function histogramChild<T extends string>(
  histogram: Histogram<T>,
  labels: Record<T, string>,
): Observer {
  const child = histogram.labels(labels);
  const internals = histogram as unknown as HistogramInternals;
  const bounds = internals.upperBounds;
  if (internals.enableExemplars || !Array.isArray(bounds) || typeof internals.hashMap !== 'object')
    return child;
  /** The bucket bounds as the series' keys (a number as an object key is its string). */
  const bucketKeys = bounds.map(String);
  let key = '';
  let series: Series | undefined;
  /** Not found where prom-client 15 keeps it: every observation takes the public path. */
  let publicOnly = false;
  /** After an observation through the public path: the series prom-client keeps for these labels. */
  const find = () => {
    series = undefined;
    for (const [k, s] of Object.entries(internals.hashMap ?? {})) {
      if (isSeriesOf(s, labels, bounds)) {
        [key, series] = [k, s];
        return;
      }
    }
    publicOnly = true;
  };
  return {
    observe(value) {
      if (publicOnly) return child.observe(value);
      if (series === undefined || internals.hashMap?.[key] !== series || !Number.isFinite(value)) {
        child.observe(value); // throws on a value that is not a finite number, as before
        find();
        return;
      }
      series.sum += value;
      series.count += 1;
      for (let i = 0; i < bounds.length; i++) {
        if (value <= bounds[i]!) {
          series.bucketValues[bucketKeys[i]!]! += 1;
          return;
        }
      }
    },
  };
}
