import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import express from 'express';
import { MgmtError, OAuthError } from './errors';
import { type Listening, createHttpApp, errorHandler, listen, opsRouter } from './http';
import { createLogger } from './logger';
import { createMetrics } from './metrics';
import { StoreUnavailableError } from './unavailable';

describe('HTTP skeleton', () => {
  let server: Listening;
  let base: string;
  let redisUp = true;
  beforeAll(async () => {
    const logger = createLogger({ service: 'test', level: 'silent' });
    const metrics = createMetrics('test', { defaultMetrics: false });
    const app = createHttpApp(logger, metrics);
    app.use(
      opsRouter({
        readiness: [
          {
            name: 'redis',
            check: async () => {
              if (!redisUp) throw new Error('connect ECONNREFUSED 10.0.0.7:6379 (password=hunter2)');
            },
          },
          { name: 'mongo', check: async () => {} },
        ],
        metrics,
        isShuttingDown: () => false,
      }),
    );
    const routes = express.Router();
    routes.get('/oauth-error', () => {
      throw new OAuthError('invalid_grant', 'code expired');
    });
    routes.get('/mgmt-error', () => {
      throw new MgmtError(400, 'invalid_request', 'bad body', { pageSize: 'must be at most 5000' });
    });
    routes.get('/crash', () => {
      throw new Error('secret internals');
    });
    routes.get('/store-down', () => {
      throw new StoreUnavailableError('redis');
    });
    routes.get('/peer-down', () => {
      throw Object.assign(new Error('14 UNAVAILABLE: No connection established'), {
        code: 14,
        details: 'No connection established',
        metadata: {},
      });
    });
    routes.post('/json', express.json(), (req, res) => void res.json(req.body));
    app.use(routes);
    app.use(errorHandler(logger, metrics));
    server = await listen(app, 0, '127.0.0.1');
    base = `http://127.0.0.1:${server.port}`;
  });
  afterAll(() => server.close(1000));

  it('/healthz answers ok and echoes a request id', async () => {
    const res = await fetch(`${base}/healthz`, { headers: { 'x-request-id': 'req-123' } });
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { status: 'ok' });
    assert.equal(res.headers.get('x-request-id'), 'req-123');
  });

  it('/readyz is 200 when every store answers and 503 naming the one that does not, without its driver message', async () => {
    redisUp = true;
    let res = await fetch(`${base}/readyz`);
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { status: 'ok', checks: { redis: 'ok', mongo: 'ok' } });
    redisUp = false;
    res = await fetch(`${base}/readyz`);
    assert.equal(res.status, 503);
    assert.deepEqual(await res.json(), {
      status: 'unavailable',
      checks: { redis: 'unavailable', mongo: 'ok' },
    });
  });

  it('/metrics exposes prom-client text with the request histogram', async () => {
    const res = await fetch(`${base}/metrics`);
    assert.equal(res.status, 200);
    const text = await res.text();
    assert.match(text, /sesame_http_request_duration_seconds_bucket\{.*route="\/healthz"/);
  });

  it('renders protocol errors in their own shapes', async () => {
    let res = await fetch(`${base}/oauth-error`);
    assert.equal(res.status, 400);
    assert.deepEqual(await res.json(), { error: 'invalid_grant', error_description: 'code expired' });
    res = await fetch(`${base}/mgmt-error`);
    assert.equal(res.status, 400);
    assert.deepEqual(await res.json(), {
      status: 'error',
      error: { code: 'invalid_request', message: 'bad body', fields: { pageSize: 'must be at most 5000' } },
    });
  });

  it('turns an unexpected error into a generic server_error without internals', async () => {
    const res = await fetch(`${base}/crash`);
    assert.equal(res.status, 500);
    const text = await res.text();
    assert.deepEqual(JSON.parse(text), { error: 'server_error', error_description: 'internal error' });
    assert.ok(!text.includes('secret internals'));
  });

  it('answers a store or peer outage with 503 temporarily_unavailable and Retry-After', async () => {
    for (const path of ['/store-down', '/peer-down']) {
      const res = await fetch(`${base}${path}`);
      assert.equal(res.status, 503, path);
      assert.equal(res.headers.get('retry-after'), '2');
      assert.deepEqual(await res.json(), {
        error: 'temporarily_unavailable',
        error_description: 'the service is unavailable; retry later',
      });
    }
  });

  it('answers malformed JSON with 400, not 500', async () => {
    const res = await fetch(`${base}/json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{bad',
    });
    assert.equal(res.status, 400);
    assert.equal(((await res.json()) as { error: string }).error, 'invalid_request');
  });

  it('sets helmet security headers and hides x-powered-by', async () => {
    const res = await fetch(`${base}/healthz`);
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(res.headers.get('x-powered-by'), null);
  });
});
