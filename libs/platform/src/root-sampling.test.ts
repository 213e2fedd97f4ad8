import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { ROOT_CONTEXT, SpanKind, trace } from '@opentelemetry/api';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { type TracesSampler, activeTracer, startRootSpan, startTracing } from './tracing';

/**
 * startRootSpan draws the sampling decision for a request without a caller's traceparent before anything is
 * made: at the configured share, and what it starts is recorded and exported, with children that follow it.
 */
describe('root spans drawn by the listener', () => {
  const draws = 4000;
  async function sample(sampler: TracesSampler, ratio: number) {
    const exporter = new InMemorySpanExporter();
    const tracing = await startTracing(
      { url: 'http://unused', serviceName: 'test', sampler, ratio },
      { exporter },
    );
    try {
      const tracer = activeTracer()!;
      let started = 0;
      let children = 0;
      for (let i = 0; i < draws; i++) {
        const span = startRootSpan(tracer, 'GET /authorize', SpanKind.SERVER);
        if (!span) continue;
        assert.equal(span.isRecording(), true);
        started++;
        // A child (a gRPC client span) follows its root whatever the sampler draws for it.
        const child = tracer.startSpan('child', { kind: SpanKind.CLIENT }, trace.setSpan(ROOT_CONTEXT, span));
        if (child.isRecording()) children++;
        child.end();
        span.end();
      }
      const exported = exporter.getFinishedSpans();
      return {
        started,
        children,
        roots: exported.filter((s) => !s.parentSpanContext).length,
        exported: exported.length,
      };
    } finally {
      await tracing.shutdown();
    }
  }
  // Five standard deviations of a binomial share over 4,000 draws at 0.25: 0.034.
  const within = (share: number, ratio: number) =>
    Math.abs(share - ratio) <= 5 * Math.sqrt((ratio * (1 - ratio)) / draws);

  it('starts a quarter of roots at parentbased_traceidratio 0.25, each recorded and exported with its child', async () => {
    const got = await sample('parentbased_traceidratio', 0.25);
    assert.ok(within(got.started / draws, 0.25), `${got.started} of ${draws}`);
    assert.deepEqual(got, {
      started: got.started,
      children: got.started,
      roots: got.started,
      exported: 2 * got.started,
    });
  });

  it('starts every root at (parentbased_)always_on and none at (parentbased_)always_off or ratio 0', async () => {
    assert.equal((await sample('parentbased_always_on', 0)).started, draws);
    assert.equal((await sample('always_on', 0)).started, draws);
    assert.equal((await sample('parentbased_always_off', 1)).started, 0);
    assert.equal((await sample('always_off', 1)).started, 0);
    assert.equal((await sample('parentbased_traceidratio', 0)).exported, 0);
    assert.equal((await sample('parentbased_traceidratio', 1)).started, draws);
  });

  it('leaves plain traceidratio to the SDK (by trace id), children deciding alike', async () => {
    const got = await sample('traceidratio', 0.25);
    assert.ok(within(got.started / draws, 0.25), `${got.started} of ${draws}`);
    assert.equal(got.children, got.started);
    assert.equal(got.roots, got.started);
  });
});
