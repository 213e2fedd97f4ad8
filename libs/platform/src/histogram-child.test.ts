import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { Histogram, Registry } from 'prom-client';
import { histogramChild } from './histogram-child';

/** Two identical histograms in two registries: one observed through histogramChild, one through prom-client. */
function pair() {
  const make = () => {
    const registry = new Registry();
    const histogram = new Histogram({
      name: 'duration_seconds',
      help: 'test',
      labelNames: ['method', 'route', 'status'] as const,
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [registry],
    });
    return { registry, histogram };
  };
  return { ours: make(), theirs: make() };
}

// On a bound, between bounds, above the last one (+Inf only), zero, and many of the same.
const values = [0, 0.001, 0.0000123, 0.003, 0.005, 0.0051, 0.7, 2.5, 3, 120, ...Array(50).fill(0.00002)];

describe('histogramChild', () => {
  it('exposes exactly what prom-client exposes for the same observations: buckets, sum, count', async () => {
    const { ours, theirs } = pair();
    const labels = { method: 'GET', route: '/jwks', status: '200' };
    const fast = histogramChild(ours.histogram, labels);
    const plain = theirs.histogram.labels(labels);
    for (const value of values) {
      fast.observe(value);
      plain.observe(value);
    }
    const text = await ours.registry.metrics();
    assert.equal(text, await theirs.registry.metrics());
    assert.match(text, /duration_seconds_count\{method="GET",route="\/jwks",status="200"\} 60\n/);
    assert.match(text, /duration_seconds_bucket\{le="0.001",method="GET",route="\/jwks",status="200"\} 53\n/);
    assert.match(text, /duration_seconds_bucket\{le="2.5",method="GET",route="\/jwks",status="200"\} 58\n/);
  });

  it('keeps label sets apart, and another label set observed through prom-client alongside', async () => {
    const { ours, theirs } = pair();
    const ok = { method: 'GET', route: '/jwks', status: '200' };
    const notModified = { method: 'GET', route: '/jwks', status: '304' };
    const [fastOk, fastNotModified] = [
      histogramChild(ours.histogram, ok),
      histogramChild(ours.histogram, notModified),
    ];
    for (const [i, value] of values.entries()) {
      (i % 3 ? fastOk : fastNotModified).observe(value);
      theirs.histogram.observe(i % 3 ? ok : notModified, value);
      ours.histogram.observe({ method: 'HEAD', route: '/jwks', status: '200' }, value);
      theirs.histogram.observe({ method: 'HEAD', route: '/jwks', status: '200' }, value);
    }
    assert.equal(await ours.registry.metrics(), await theirs.registry.metrics());
  });

  it('counts on after the histogram is reset or the series removed', async () => {
    const { ours, theirs } = pair();
    const labels = { method: 'GET', route: '/doc', status: '200' };
    const fast = histogramChild(ours.histogram, labels);
    fast.observe(0.002);
    fast.observe(0.002);
    ours.histogram.reset();
    fast.observe(0.003);
    fast.observe(0.02);
    ours.histogram.remove(labels);
    fast.observe(0.0001);
    fast.observe(0.3);
    theirs.histogram.observe(labels, 0.0001);
    theirs.histogram.observe(labels, 0.3);
    assert.equal(await ours.registry.metrics(), await theirs.registry.metrics());
  });

  it('refuses a value that is not a finite number, as prom-client does, and records nothing for it', async () => {
    const { ours, theirs } = pair();
    const labels = { method: 'GET', route: '/doc', status: '200' };
    const fast = histogramChild(ours.histogram, labels);
    fast.observe(0.002);
    theirs.histogram.observe(labels, 0.002);
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY])
      assert.throws(() => fast.observe(bad), TypeError);
    fast.observe(0.004);
    theirs.histogram.observe(labels, 0.004);
    assert.equal(await ours.registry.metrics(), await theirs.registry.metrics());
  });

  it('refuses a label set prom-client refuses', () => {
    const { ours } = pair();
    assert.throws(() =>
      histogramChild(ours.histogram, { method: 'GET', route: '/doc', status: '200', extra: 'x' } as never),
    );
  });
});
