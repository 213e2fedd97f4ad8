import assert from 'node:assert/strict';
import { type Server, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { SpanStatusCode } from '@opentelemetry/api';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { tracedListener } from './http-tracing';
import { type TracingHandle, startTracing } from './tracing';

/** The SERVER span of a request on a real port: ended once the answer is sent, or when the caller went away. */
describe('tracedListener', () => {
  const exporter = new InMemorySpanExporter();
  let tracing: TracingHandle;
  let server: Server;
  let base = '';
  let arrived: () => void = () => {};
  beforeAll(async () => {
    tracing = await startTracing(
      { url: 'http://unused', serviceName: 'test', sampler: 'parentbased_always_on', ratio: 1 },
      { exporter },
    );
    server = createServer(
      tracedListener((req, res) => {
        if (req.url === '/answered') res.writeHead(201).end('ok');
        else if (req.url === '/failed') res.writeHead(503).end();
        else arrived(); // /never: no answer; the caller gives up
      }),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await tracing.shutdown();
  });
  const spanOf = async (path: string) => {
    for (let i = 0; i < 100; i++) {
      const span = exporter.getFinishedSpans().find((s) => s.attributes['url.path'] === path);
      if (span) return span;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error(`no span for ${path}`);
  };

  it('records the answered status once the answer is sent', async () => {
    assert.equal((await fetch(`${base}/answered`)).status, 201);
    const span = await spanOf('/answered');
    assert.equal(span.name, 'GET /answered');
    assert.equal(span.attributes['http.response.status_code'], 201);
    assert.equal(span.status.code, SpanStatusCode.UNSET);
    assert.equal((await fetch(`${base}/failed`)).status, 503);
    assert.equal((await spanOf('/failed')).status.code, SpanStatusCode.ERROR);
  });

  it('ends the span of a request whose caller went away before the answer, with no status code', async () => {
    const waiting = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    const req = request(`${base}/never`);
    req.on('error', () => {});
    req.end();
    await waiting;
    req.destroy();
    const span = await spanOf('/never');
    assert.equal(span.attributes['http.response.status_code'], undefined);
    assert.deepEqual(span.status, {
      code: SpanStatusCode.ERROR,
      message: 'connection closed before the answer was sent',
    });
  });
});
