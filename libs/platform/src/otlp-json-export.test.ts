import assert from 'node:assert/strict';
import diagnostics from 'node:diagnostics_channel';
import { type Server, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, it } from '@jest/globals';
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, type Tracer, trace } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOnSampler,
  BasicTracerProvider,
  BatchSpanProcessor,
  ParentBasedSampler,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { type ExportFailure, OtlpJsonSpanProcessor } from './otlp-json-export';

/** A collector on a real port: keeps each POST's path, content type and parsed body; answers `status`. */
interface Received {
  path: string;
  contentType: string | undefined;
  authorization: string | undefined;
  body: OtlpRequest;
}
interface OtlpSpan {
  spanId: string;
  name: string;
  [key: string]: unknown;
}
interface OtlpRequest {
  resourceSpans: Array<{
    resource: unknown;
    scopeSpans: Array<{ scope: { name: string }; spans: OtlpSpan[] }>;
  }>;
}

describe('OtlpJsonSpanProcessor', () => {
  let server: Server;
  let base = '';
  let status = 200;
  let received: Received[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({
          path: req.url ?? '',
          contentType: req.headers['content-type'],
          authorization: req.headers.authorization,
          body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpRequest,
        });
        res.writeHead(status, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  afterEach(() => {
    received = [];
    status = 200;
  });

  const providerWith = (...spanProcessors: SpanProcessor[]) =>
    new BasicTracerProvider({
      resource: resourceFromAttributes({ 'service.name': 'token', 'service.instance.id': 'i-1' }),
      sampler: new ParentBasedSampler({ root: new AlwaysOnSampler() }),
      spanProcessors,
    });
  const spans = (requests: Received[]) =>
    requests
      .flatMap((r) => r.body.resourceSpans.flatMap((rs) => rs.scopeSpans.flatMap((ss) => ss.spans)))
      .sort((a, b) => a.spanId.localeCompare(b.spanId));

  /** Spans of every shape Sesame makes: server, client, producer and consumer spans, errors, links, remote parents. */
  function makeSpans(tracer: Tracer, count = 1): void {
    const remote = new W3CTraceContextPropagator().extract(
      ROOT_CONTEXT,
      { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01', tracestate: 'vendor=1' },
      { keys: (c) => Object.keys(c), get: (c, k) => c[k] },
    );
    const unsampled = new W3CTraceContextPropagator().extract(
      ROOT_CONTEXT,
      { traceparent: '00-1af7651916cd43dd8448eb211c80319c-c7ad6b7169203331-00' },
      { keys: (c) => Object.keys(c), get: (c, k) => c[k] },
    );
    for (let i = 0; i < count; i++) {
      const root = tracer.startSpan(
        'POST /token',
        {
          kind: SpanKind.SERVER,
          attributes: {
            'http.request.method': 'POST',
            'http.response.status_code': 200,
            'sesame.ratio': 0.25,
            'sesame.cached': true,
            'sesame.scopes': ['openid', 'email'],
            'sesame.counts': [1, 2.5],
          },
        },
        remote,
      );
      const child = tracer.startSpan(
        'sesame.Directory/Find',
        { kind: SpanKind.CLIENT },
        trace.setSpan(remote, root),
      );
      child.setStatus({ code: SpanStatusCode.ERROR, message: 'UNAVAILABLE: no connection' });
      child.recordException(new Error('UNAVAILABLE: no connection'));
      child.addEvent('retry', { attempt: 2 });
      child.end();
      const producer = tracer.startSpan('flow-events publish', {
        kind: SpanKind.PRODUCER,
        links: [{ context: root.spanContext(), attributes: { 'link.kind': 'caused-by' } }],
      });
      producer.setStatus({ code: SpanStatusCode.OK });
      producer.end();
      tracer.startSpan('activity-log consume', { kind: SpanKind.CONSUMER }, unsampled).end();
      tracer.startSpan('render', { kind: SpanKind.INTERNAL }, trace.setSpan(ROOT_CONTEXT, root)).end();
      root.end();
    }
  }

  it("sends what the SDK's OTLP/JSON exporter sends for the same spans", async () => {
    const ours = new OtlpJsonSpanProcessor({ url: `${base}/ours/v1/traces` });
    const sdk = new BatchSpanProcessor(new OTLPTraceExporter({ url: `${base}/sdk/v1/traces` }));
    const provider = providerWith(ours, sdk);
    makeSpans(provider.getTracer('sesame'));
    makeSpans(provider.getTracer('other', '1.2.3'));
    await provider.forceFlush();
    const byUs = received.filter((r) => r.path === '/ours/v1/traces');
    const bySdk = received.filter((r) => r.path === '/sdk/v1/traces');
    assert.equal(byUs.length, 1);
    assert.equal(byUs[0]!.contentType, 'application/json');
    // Four sampled spans of each tracer; the one under an unsampled parent is never recorded.
    assert.equal(spans(byUs).length, 8);
    assert.deepEqual(spans(byUs), spans(bySdk));
    const { scopeSpans, resource } = byUs[0]!.body.resourceSpans[0]!;
    assert.deepEqual(resource, bySdk[0]!.body.resourceSpans[0]!.resource);
    assert.deepEqual(
      scopeSpans.map((s) => s.scope).sort((a, b) => a.name.localeCompare(b.name)),
      [{ name: 'other', version: '1.2.3' }, { name: 'sesame' }],
    );
    // What a reader of the collector relies on, spelled out: a remote parent, hex ids, kinds and times.
    const server = spans(byUs).find(
      (s) => s.name === 'POST /token' && s.traceId === '0af7651916cd43dd8448eb211c80319c',
    )!;
    assert.equal(server.parentSpanId, 'b7ad6b7169203331');
    assert.equal(server.traceState, 'vendor=1');
    assert.equal(server.kind, 2);
    assert.equal(server.flags, 0x301);
    assert.match(String(server.startTimeUnixNano), /^\d{19}$/);
    await provider.shutdown();
  });

  it('sends a full batch at once and the rest when its delay is over, in order', async () => {
    const ours = new OtlpJsonSpanProcessor({ url: `${base}/v1/traces`, maxBatch: 3, delayMs: 50 });
    const tracer = providerWith(ours).getTracer('sesame');
    for (let i = 0; i < 7; i++) tracer.startSpan(`span ${i}`).end();
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.deepEqual(
      received.map((r) => r.body.resourceSpans[0]!.scopeSpans[0]!.spans.map((s) => s.name)),
      [['span 0', 'span 1', 'span 2'], ['span 3', 'span 4', 'span 5'], ['span 6']],
    );
    assert.deepEqual(ours.stats, { exported: 7, dropped: 0, failed: 0 });
    await ours.shutdown();
  });

  it('keeps at most maxQueue spans while none has gone out, and counts and reports those it drops', async () => {
    const failures: ExportFailure[] = [];
    const ours = new OtlpJsonSpanProcessor({
      url: `${base}/v1/traces`,
      maxQueue: 5,
      maxBatch: 10,
      delayMs: 60_000,
      onFailure: (f) => failures.push(f),
    });
    const tracer = providerWith(ours).getTracer('sesame');
    for (let i = 0; i < 8; i++) tracer.startSpan(`span ${i}`).end();
    assert.equal(received.length, 0);
    await ours.forceFlush();
    assert.deepEqual(
      spans(received)
        .map((s) => s.name)
        .sort(),
      ['span 0', 'span 1', 'span 2', 'span 3', 'span 4'],
    );
    assert.deepEqual(ours.stats, { exported: 5, dropped: 3, failed: 0 });
    assert.deepEqual(failures, Array(3).fill({ spans: 1, batch: false, why: 'queue full' }));
    await ours.shutdown();
  });

  it('counts the spans of a batch the collector refuses, and goes on', async () => {
    const failures: ExportFailure[] = [];
    const ours = new OtlpJsonSpanProcessor({ url: `${base}/v1/traces`, onFailure: (f) => failures.push(f) });
    const tracer = providerWith(ours).getTracer('sesame');
    status = 503;
    tracer.startSpan('refused').end();
    await ours.forceFlush();
    status = 200;
    tracer.startSpan('taken').end();
    await ours.forceFlush();
    assert.equal(received.length, 2);
    assert.deepEqual(ours.stats, { exported: 1, dropped: 0, failed: 1 });
    assert.deepEqual(failures, [{ spans: 1, batch: true, why: 'status 503' }]);
    await ours.shutdown();
  });

  it('counts the spans of a batch nobody listens for, without throwing, and shuts down', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const failures: ExportFailure[] = [];
    const ours = new OtlpJsonSpanProcessor({
      url: `http://127.0.0.1:${port}/v1/traces`,
      onFailure: (f) => failures.push(f),
    });
    const tracer = providerWith(ours).getTracer('sesame');
    tracer.startSpan('lost').end();
    await ours.shutdown();
    assert.deepEqual(ours.stats, { exported: 0, dropped: 0, failed: 1 });
    assert.deepEqual(failures, [{ spans: 1, batch: true, why: 'ECONNREFUSED' }]);
  });

  it('gives up on a collector that does not answer within timeoutMs', async () => {
    const failures: ExportFailure[] = [];
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const ours = new OtlpJsonSpanProcessor({
      url: `http://127.0.0.1:${(silent.address() as AddressInfo).port}/v1/traces`,
      timeoutMs: 100,
      onFailure: (f) => failures.push(f),
    });
    providerWith(ours).getTracer('sesame').startSpan('slow').end();
    const started = Date.now();
    await ours.forceFlush();
    assert.ok(Date.now() - started < 2000);
    assert.deepEqual(ours.stats, { exported: 0, dropped: 0, failed: 1 });
    assert.deepEqual(failures, [{ spans: 1, batch: true, why: 'timeout' }]);
    await ours.shutdown();
    silent.closeAllConnections();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
  });

  it('makes its export requests off the main thread (no HTTP client request here)', async () => {
    const started: string[] = [];
    const onStart = (message: unknown) =>
      started.push(String((message as { request: { path: string } }).request.path));
    diagnostics.subscribe('http.client.request.start', onStart);
    try {
      const ours = new OtlpJsonSpanProcessor({ url: `${base}/worker/v1/traces` });
      providerWith(ours).getTracer('sesame').startSpan('elsewhere').end();
      await ours.shutdown();
      assert.deepEqual(
        spans(received).map((s) => s.name),
        ['elsewhere'],
      );
      assert.deepEqual(ours.stats, { exported: 1, dropped: 0, failed: 0 });
      // The channel works on this thread: a request made here is seen.
      await new Promise<void>((resolve, reject) =>
        request(`${base}/main/v1/traces`, { method: 'POST' }, (res) => res.resume().on('end', resolve))
          .on('error', reject)
          .end('{"resourceSpans":[]}'),
      );
      assert.deepEqual(started, ['/main/v1/traces']);
    } finally {
      diagnostics.unsubscribe('http.client.request.start', onStart);
    }
  });

  it('sends the configured headers (a collector API key) with every export, its own content type kept', async () => {
    const ours = new OtlpJsonSpanProcessor({
      url: `${base}/v1/traces`,
      headers: { authorization: 'Bearer collector-key', 'content-type': 'text/plain' },
    });
    providerWith(ours).getTracer('sesame').startSpan('keyed').end();
    await ours.shutdown();
    assert.deepEqual(
      received.map((r) => [r.authorization, r.contentType]),
      [['Bearer collector-key', 'application/json']],
    );
  });

  it('takes no span after shutdown', async () => {
    const ours = new OtlpJsonSpanProcessor({ url: `${base}/v1/traces` });
    const tracer = providerWith(ours).getTracer('sesame');
    await ours.shutdown();
    tracer.startSpan('late').end();
    await ours.forceFlush();
    assert.equal(received.length, 0);
    assert.deepEqual(ours.stats, { exported: 0, dropped: 0, failed: 0 });
  });
});
