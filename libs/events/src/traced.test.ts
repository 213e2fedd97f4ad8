import assert from 'node:assert/strict';
import { type Server, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { SpanKind } from '@opentelemetry/api';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { type PromiseClient, createLogger } from '@sesame/platform';
import { type TracingHandle, activeSpanIds, startTracing } from '@sesame/platform/tracing';
import type { directory } from '@sesame/proto';
import { MemoryEventBus } from './memory';
import type { DeliveredEvent, EventBus } from './port';
import { type TracedChain, startTracedChain } from './testing/traced-chain';
import { traceEventBus } from './traced';

/**
 * One request's trace across the three carriers, with the real pieces: an HTTP server behind tracedListener
 * receives the RP's traceparent, calls a gRPC server through createClient (metadata), whose method publishes
 * an event on a traced bus (headers); the consumer's span and log line carry the same trace id.
 */
describe('trace context across HTTP, gRPC and the event bus', () => {
  const exporter = new InMemorySpanExporter();
  const lines: Array<Record<string, unknown>> = [];
  let tracing: TracingHandle;
  let http: Server;
  let client: PromiseClient<directory.DirectoryServiceClient>;
  let bus: EventBus;
  let chain: TracedChain;
  const consumed: Array<{ event: DeliveredEvent; ids: ReturnType<typeof activeSpanIds> }> = [];
  let delivered: () => void = () => {};
  const nextDelivery = () =>
    new Promise<void>((resolve) => {
      delivered = resolve;
    });

  beforeAll(async () => {
    // Started first: servers, clients, buses and loggers look once whether tracing is on, as in runMain.
    tracing = await startTracing(
      { url: 'http://unused', serviceName: 'test', sampler: 'parentbased_traceidratio', ratio: 0 },
      { exporter },
    );
    const logger = createLogger({
      service: 'test',
      destination: new Writable({
        write(chunk, _enc, done) {
          lines.push(JSON.parse(String(chunk)) as Record<string, unknown>);
          done();
        },
      }),
    });
    bus = traceEventBus(new MemoryEventBus());
    await bus.consumer({ groupId: 'g', topics: ['t'] }).start(async (events) => {
      for (const event of events) consumed.push({ event, ids: activeSpanIds() });
      logger.info('consumed');
      delivered();
    });
    chain = await startTracedChain({
      bus,
      logger,
      clientIdOf: () => 'c1',
    });
    ({ http, client } = chain);
  });
  afterAll(async () => {
    await chain.stop();
    await bus.close();
    await tracing.shutdown();
  });

  it('keeps the caller’s trace id from HTTP through gRPC metadata and the event header to the consumer', async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const rpSpan = '00f067aa0ba902b7';
    const deliveredOnce = nextDelivery();
    await get({ traceparent: `00-${traceId}-${rpSpan}-01` });
    await deliveredOnce;
    await new Promise((r) => setTimeout(r, 50));
    const spans = exporter.getFinishedSpans();
    const byName = (name: string): ReadableSpan => {
      const span = spans.find((s) => s.name === name);
      assert.ok(span, `a span named ${name} among ${spans.map((s) => s.name).join(', ')}`);
      return span;
    };
    const server = byName('GET /sign-in');
    const grpcSpans = spans.filter((s) => s.name === 'sesame.directory.v1.DirectoryService/GetClient');
    const grpcClient = grpcSpans.find((s) => s.kind === SpanKind.CLIENT);
    const serverSide = grpcSpans.find((s) => s.kind === SpanKind.SERVER);
    const consumer = byName('process t');
    assert.equal(consumer.kind, SpanKind.CONSUMER);
    assert.equal(spans.length, 4);
    // sampled by the parent's flag although the ratio is 0: the RP asked for this trace
    for (const span of spans) assert.equal(span.spanContext().traceId, traceId);
    assert.equal(server.parentSpanContext?.spanId, rpSpan);
    assert.ok(grpcClient && serverSide, 'a CLIENT and a SERVER span of the call');
    assert.equal(serverSide.parentSpanContext?.spanId, grpcClient.spanContext().spanId);
    assert.equal(grpcClient.parentSpanContext?.spanId, server.spanContext().spanId);
    assert.equal(consumer.parentSpanContext?.spanId, serverSide.spanContext().spanId);
    const header = consumed[0]!.event.headers.traceparent;
    assert.equal(header, `00-${traceId}-${serverSide.spanContext().spanId}-01`);
    assert.deepEqual(consumed[0]!.ids, { traceId, spanId: consumer.spanContext().spanId, sampled: true });
    const line = lines.find((l) => l.msg === 'consumed');
    assert.equal(line?.trace_id, traceId);
    assert.equal(line?.span_id, consumer.spanContext().spanId);
  });

  it('at ratio 0 with no caller trace: no span, and no trace context anywhere behind the listener', async () => {
    exporter.reset();
    consumed.length = 0;
    lines.length = 0;
    const deliveredOnce = nextDelivery();
    await get({});
    await deliveredOnce;
    await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(exporter.getFinishedSpans(), []);
    // The decision "not sampled" was made at the edge: nothing carries a traceparent the peers would
    // continue, nor ids that no collector will ever have.
    assert.equal(consumed[0]!.event.headers.traceparent, undefined);
    assert.equal(consumed[0]!.ids, undefined);
    const line = lines.find((l) => l.msg === 'consumed');
    assert.equal(line?.trace_id, undefined);
  });

  function get(headers: Record<string, string>): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const port = (http.address() as AddressInfo).port;
      request({ port, host: '127.0.0.1', path: '/sign-in', headers })
        .on('response', (res) => res.resume().on('end', resolve))
        .on('error', reject)
        .end();
    });
  }
});
