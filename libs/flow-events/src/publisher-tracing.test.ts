import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { trace } from '@opentelemetry/api';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import type { EventPublisher, OutgoingEvent } from '@sesame/events';
import { type TracingHandle, startTracing } from '@sesame/platform/tracing';
import pino from 'pino';
import { decodeFlowEvent } from './codec';
import { createFlowEvents } from './publisher';
import type { FlowEventInput } from './schema';

const step: FlowEventInput = {
  flowId: 'flow-1',
  tenantId: 'tenant-a',
  appId: 'app-1',
  action: 'auth_complete',
  clientIp: '203.0.113.7',
};

describe('flow-event publisher with tracing on', () => {
  let tracing: TracingHandle;
  const sent: OutgoingEvent[] = [];
  const publisher: EventPublisher = {
    async publish(_topic, evs) {
      sent.push(...evs);
    },
    async flush() {},
    pending: () => 0,
  };
  beforeAll(async () => {
    tracing = await startTracing(
      { url: 'http://unused', serviceName: 'test', sampler: 'parentbased_traceidratio', ratio: 1 },
      { exporter: new InMemorySpanExporter() },
    );
  });
  afterAll(() => tracing.shutdown());

  it('gives each event the trace of the request that recorded it, in its traceparent and its traceId', async () => {
    const flowEvents = createFlowEvents({ publisher, logger: pino({ level: 'silent' }) });
    const tracer = trace.getTracer('test');
    // Two requests in one turn of the event loop: one publish, each event with its own request's trace.
    const [a, b] = await Promise.all(
      ['flow-a', 'flow-b'].map((flowId) =>
        tracer.startActiveSpan(flowId, async (span) => {
          const facts = await flowEvents.record({ ...step, flowId });
          span.end();
          return { facts, traceId: span.spanContext().traceId, spanId: span.spanContext().spanId };
        }),
      ),
    );
    assert.notEqual(a!.traceId, b!.traceId);
    for (const request of [a!, b!]) {
      const event = sent.find((e) => e.key === request.facts.flowId)!;
      assert.equal(event.headers?.traceparent, `00-${request.traceId}-${request.spanId}-01`);
      assert.equal(event.headers?.['event-type'] !== undefined, true);
      assert.equal(decodeFlowEvent(event.value).traceId, request.traceId);
      assert.equal(request.facts.traceId, request.traceId);
    }
  });

  it('records no trace id outside a span', async () => {
    const facts = await createFlowEvents({ publisher, logger: pino({ level: 'silent' }) }).record(step);
    assert.equal(facts.traceId, undefined);
    assert.equal(decodeFlowEvent(sent.at(-1)!.value).traceId, undefined);
  });
});
