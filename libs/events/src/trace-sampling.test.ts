import assert from 'node:assert/strict';
import { type Server, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, it } from '@jest/globals';
import { SpanKind } from '@opentelemetry/api';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { type PromiseClient, createLogger } from '@sesame/platform';
import { type TracingHandle, startTracing } from '@sesame/platform/tracing';
import type { directory } from '@sesame/proto';
import { MemoryEventBus } from './memory';
import type { DeliveredEvent, EventBus } from './port';
import { type TracedChain, startTracedChain } from './testing/traced-chain';
import { traceEventBus } from './traced';

/**
 * The sampling decision is made once, where a request comes in, and holds for every span of its trace: at
 * the parent-based ratio sampler, each request (HTTP → gRPC client → gRPC server → event → consumer, the real
 * pieces as in traced.test.ts) is exported whole or not at all, and nothing behind the listener starts a
 * trace of its own. Probes, scrapes and static files make no span.
 */
describe('one sampling decision per trace, at the edge', () => {
  const exporter = new InMemorySpanExporter();
  let tracing: TracingHandle;
  let http: Server;
  let client: PromiseClient<directory.DirectoryServiceClient>;
  let bus: EventBus;
  let chain: TracedChain;
  /** The traceparent metadata of each gRPC call the server got, and each event the consumer got. */
  const grpcTraceparents: Array<string | undefined> = [];
  const consumed: DeliveredEvent[] = [];
  let waiting: { count: number; done: () => void } | undefined;

  beforeAll(async () => {
    tracing = await startTracing(
      { url: 'http://unused', serviceName: 'test', sampler: 'parentbased_traceidratio', ratio: 0.5 },
      { exporter },
    );
    const logger = createLogger({ service: 'test', level: 'silent' });
    bus = traceEventBus(new MemoryEventBus());
    await bus.consumer({ groupId: 'g', topics: ['t'] }).start(async (events) => {
      consumed.push(...events);
      if (waiting && consumed.length >= waiting.count) waiting.done();
    });
    chain = await startTracedChain({
      bus,
      logger,
      clientIdOf: (req) => req.url ?? '',
      onCall: (traceparent) => grpcTraceparents.push(traceparent),
    });
    ({ http, client } = chain);
  });
  afterAll(async () => {
    await chain.stop();
    await bus.close();
    await tracing.shutdown();
  });
  beforeEach(() => {
    exporter.reset();
    grpcTraceparents.length = 0;
    consumed.length = 0;
  });

  it('exports each request whole or not at all: no span behind the listener decides on its own', async () => {
    const requests = 60;
    const delivered = consumedCount(requests);
    for (let i = 0; i < requests; i++) await get(`/sign-in/${i}`, {});
    await delivered;
    await new Promise((r) => setTimeout(r, 50));
    const traces = new Map<string, ReadableSpan[]>();
    for (const span of exporter.getFinishedSpans()) {
      const id = span.spanContext().traceId;
      traces.set(id, [...(traces.get(id) ?? []), span]);
    }
    // At 0.5 some requests are sampled and some not (each way with probability 2^-60 of failing).
    assert.ok(traces.size > 0 && traces.size < requests, `${traces.size} of ${requests} requests sampled`);
    for (const [traceId, spans] of traces) {
      const kinds = spans.map((s) => s.kind).sort();
      assert.deepEqual(
        kinds,
        [SpanKind.SERVER, SpanKind.SERVER, SpanKind.CLIENT, SpanKind.CONSUMER].sort(),
        `trace ${traceId}: ${spans.map((s) => s.name).join(', ')}`,
      );
      const roots = spans.filter((s) => !s.parentSpanContext);
      assert.equal(roots.length, 1);
      assert.match(roots[0]!.name, /^GET /);
    }
    // The sampled requests' gRPC calls and events carry their trace (flag 01); the others carry nothing.
    const sampled = grpcTraceparents.filter((t) => t !== undefined);
    assert.equal(sampled.length, traces.size);
    for (const t of sampled) assert.ok(traces.has(t!.split('-')[1]!) && t!.endsWith('-01'), t);
    const headers = consumed.map((e) => e.headers.traceparent).filter((t) => t !== undefined);
    assert.equal(headers.length, traces.size);
    for (const t of headers) assert.ok(traces.has(t!.split('-')[1]!) && t!.endsWith('-01'), t);
  });

  it('continues a caller’s unsampled trace without recording it, its context travelling on', async () => {
    const traceId = '0af7651916cd43dd8448eb211c80319c';
    const delivered = consumedCount(1);
    await get('/sign-in', { traceparent: `00-${traceId}-b7ad6b7169203331-00` });
    await delivered;
    assert.deepEqual(exporter.getFinishedSpans(), []);
    assert.match(grpcTraceparents[0] ?? '', new RegExp(`^00-${traceId}-[0-9a-f]{16}-00$`));
    assert.match(consumed[0]!.headers.traceparent ?? '', new RegExp(`^00-${traceId}-[0-9a-f]{16}-00$`));
  });

  it('makes no span for probes, scrapes, static files and the development outbox, even when asked to', async () => {
    const paths = [
      '/healthz',
      '/readyz',
      '/metrics',
      '/readyz?verbose=1',
      '/ops/token/readyz',
      '/assets/app.3f2a.css',
      '/console/assets/console.css',
      '/dev/mail.json?to=a@example.com',
    ];
    const delivered = consumedCount(paths.length);
    for (const path of paths)
      await get(path, { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' });
    await delivered;
    await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(exporter.getFinishedSpans(), []);
    assert.deepEqual(
      grpcTraceparents,
      paths.map(() => undefined),
    );
    assert.deepEqual(
      consumed.map((e) => e.headers.traceparent),
      paths.map(() => undefined),
    );
  });

  it('starts no trace for a gRPC call made outside a request (a background task)', async () => {
    const delivered = consumedCount(1);
    await client.getClient({ clientId: 'background' });
    await delivered;
    await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(exporter.getFinishedSpans(), []);
    assert.deepEqual(grpcTraceparents, [undefined]);
  });

  function consumedCount(count: number): Promise<void> {
    return new Promise<void>((done) => {
      waiting = { count, done };
    });
  }

  function get(path: string, headers: Record<string, string>): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const port = (http.address() as AddressInfo).port;
      request({ port, host: '127.0.0.1', path, headers })
        .on('response', (res) => res.resume().on('end', resolve))
        .on('error', reject)
        .end();
    });
  }
});
