import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import express from 'express';
import { fastRouteListener } from './fast-routes';
import { API_CSP, createHttpApp, errorHandler, listen } from './http';
import { createLogger } from './logger';

const logger = createLogger({ service: 'test', level: 'silent' });

/** Issue 26 finding 9: JSON 404 and 413 answers carried no Content-Security-Policy. */
describe('every answer carries the security headers', () => {
  let base = '';
  let close: (ms: number) => Promise<void>;
  beforeAll(async () => {
    const app = createHttpApp(logger);
    app.post('/json', express.json({ limit: '1kb' }), (_req, res) => void res.json({ ok: true }));
    app.get('/page', (_req, res) => {
      res.setHeader('Content-Security-Policy', "default-src 'self'");
      res.type('html').send('<p>page</p>');
    });
    app.use(express.Router().all('*', (_req, res) => void res.status(404).json({ error: 'not_found' })));
    app.use(errorHandler(logger));
    const fast = {
      path: '/fast',
      respond: () => ({ headers: { 'Content-Type': 'application/json' }, body: Buffer.from('{}') }),
    };
    const listening = await listen(fastRouteListener(app, [{ fastRoutes: [fast] }]), 0, '127.0.0.1');
    base = `http://127.0.0.1:${listening.port}`;
    close = listening.close;
  });
  afterAll(() => close(1000));

  const expectHardened = (res: Response, what: string) => {
    assert.equal(res.headers.get('content-security-policy'), API_CSP, what);
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff', what);
    assert.ok(res.headers.get('x-frame-options'), what);
    assert.ok(res.headers.get('strict-transport-security'), what);
  };

  it('a JSON 404, a 413 from the body parser, a 400 and a success', async () => {
    const notFound = await fetch(`${base}/nowhere`);
    assert.equal(notFound.status, 404);
    expectHardened(notFound, '404');
    const tooLarge = await fetch(`${base}/json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ x: 'a'.repeat(5000) }),
    });
    assert.equal(tooLarge.status, 413);
    expectHardened(tooLarge, '413');
    const malformed = await fetch(`${base}/json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{',
    });
    assert.equal(malformed.status, 400);
    expectHardened(malformed, '400');
    const ok = await fetch(`${base}/json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expectHardened(ok, '200');
  });

  it('a fast route too; a page keeps its own policy', async () => {
    expectHardened(await fetch(`${base}/fast`), 'fast route');
    const page = await fetch(`${base}/page`);
    assert.equal(page.headers.get('content-security-policy'), "default-src 'self'");
  });
});
