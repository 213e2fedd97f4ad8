import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import express from 'express';
import { type FastRoute, fastRouteHandler, fastRouteListener } from './fast-routes';
import { type Listening, createHttpApp, listen } from './http';
import { createLogger } from './logger';
import { createMetrics } from './metrics';

describe('fast routes', () => {
  const metrics = createMetrics('test', { defaultMetrics: false });
  // The fast path records into its module's metrics; a separate registry proves it does so itself.
  const fastMetrics = createMetrics('fast', { defaultMetrics: false });
  let body = Buffer.from('{"v":1}');
  const route: FastRoute = {
    path: '/doc',
    respond: () => ({ headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' }, body }),
  };
  let fast: Listening;
  let plain: Listening;
  let fastBase: string;
  let plainBase: string;

  beforeAll(async () => {
    const app = createHttpApp(createLogger({ service: 'test', level: 'silent' }), metrics);
    const routes = express.Router();
    routes.get(route.path, fastRouteHandler(route));
    routes.get('/other', (_req, res) => void res.json({ from: 'express' }));
    routes.post(route.path, (_req, res) => void res.status(405).json({ from: 'express' }));
    app.use(routes);
    fast = await listen(
      fastRouteListener(app, [{ fastRoutes: [route], metrics: fastMetrics }]),
      0,
      '127.0.0.1',
    );
    plain = await listen(app, 0, '127.0.0.1');
    fastBase = `http://127.0.0.1:${fast.port}`;
    plainBase = `http://127.0.0.1:${plain.port}`;
  });
  afterAll(() => Promise.all([fast.close(500), plain.close(500)]));

  const headersOf = (res: Response) =>
    Object.fromEntries(
      [...res.headers].filter(([name]) => !['date', 'x-request-id', 'etag', 'keep-alive'].includes(name)),
    );

  it('answers exactly what the express route answers: status, body and every header', async () => {
    const [viaFast, viaExpress] = await Promise.all([fetch(`${fastBase}/doc`), fetch(`${plainBase}/doc`)]);
    assert.equal(viaFast.status, 200);
    assert.deepEqual(headersOf(viaFast), headersOf(viaExpress));
    assert.equal(await viaFast.text(), '{"v":1}');
    assert.equal(await viaExpress.text(), '{"v":1}');
    assert.equal(viaFast.headers.get('x-content-type-options'), 'nosniff');
  });

  it('serves the current body when the route swaps it, byte for byte (UTF-8 included)', async () => {
    body = Buffer.from('{"v":"2 – é ✓"}');
    const res = await fetch(`${fastBase}/doc?x=1`);
    assert.deepEqual(Buffer.from(await res.arrayBuffer()), body);
    assert.equal(res.headers.get('content-length'), String(body.length));
  });

  it('answers HEAD with the headers and no body', async () => {
    const res = await fetch(`${fastBase}/doc`, { method: 'HEAD' });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-length'), String(body.length));
    assert.equal(await res.text(), '');
  });

  it('echoes a sane request id and replaces an unsafe one', async () => {
    const ok = await fetch(`${fastBase}/doc`, { headers: { 'x-request-id': 'abc-123' } });
    assert.equal(ok.headers.get('x-request-id'), 'abc-123');
    const bad = await fetch(`${fastBase}/doc`, { headers: { 'x-request-id': 'a b<script>' } });
    assert.match(bad.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
  });

  it('leaves other methods and paths to express', async () => {
    assert.deepEqual(await (await fetch(`${fastBase}/doc`, { method: 'POST' })).json(), { from: 'express' });
    assert.deepEqual(await (await fetch(`${fastBase}/other`)).json(), { from: 'express' });
  });

  it('sends the same strong ETag on both paths, and a new one when the body changes', async () => {
    const [viaFast, viaExpress] = await Promise.all([fetch(`${fastBase}/doc`), fetch(`${plainBase}/doc`)]);
    const etag = viaFast.headers.get('etag');
    assert.match(etag ?? '', /^"[\w-]{27}"$/);
    assert.equal(viaExpress.headers.get('etag'), etag);
    const before = body;
    body = Buffer.from('{"v":3}');
    const changed = await fetch(`${fastBase}/doc`);
    assert.notEqual(changed.headers.get('etag'), etag);
    assert.equal(await changed.text(), '{"v":3}');
    body = before;
  });

  it('answers a matching If-None-Match with 304 and no body on both paths, with the 200 headers', async () => {
    const full = await fetch(`${fastBase}/doc`);
    const etag = full.headers.get('etag')!;
    for (const base of [fastBase, plainBase]) {
      for (const condition of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
        const res = await fetch(`${base}/doc`, { headers: { 'if-none-match': condition } });
        assert.equal(res.status, 304, `${base} ${condition}`);
        assert.equal(await res.text(), '');
        assert.equal(res.headers.get('etag'), etag);
        assert.equal(res.headers.get('cache-control'), 'no-store');
        assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
        assert.equal(res.headers.get('access-control-allow-origin'), '*');
      }
      const stale = await fetch(`${base}/doc`, { headers: { 'if-none-match': '"stale"' } });
      assert.equal(stale.status, 200);
      assert.equal(await stale.text(), body.toString());
    }
    const echoed = await fetch(`${fastBase}/doc`, {
      headers: { 'if-none-match': etag, 'x-request-id': 'r-304' },
    });
    assert.equal(echoed.headers.get('x-request-id'), 'r-304');
  });

  it('records the request duration under the route path', async () => {
    await fetch(`${fastBase}/doc`);
    const text = await fastMetrics.registry.metrics();
    assert.match(
      text,
      /sesame_http_request_duration_seconds_count\{[^}]*route="\/doc",status="200"[^}]*\} [1-9]/,
    );
  });
});
