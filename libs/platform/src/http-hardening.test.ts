import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import { describe, it } from '@jest/globals';
import express from 'express';
import { fastRouteListener } from './fast-routes';
import {
  clientIpOf,
  compileTrust,
  createHttpApp,
  httpTimeouts,
  listen,
  normalizeIp,
  trustedProxiesOf,
} from './http';
import { createLogger } from './logger';

const logger = createLogger({ service: 'test', level: 'silent' });
const fakeReq = (peer: string, forwarded: string) =>
  ({
    socket: { remoteAddress: peer },
    connection: { remoteAddress: peer },
    headers: { 'x-forwarded-for': forwarded },
  }) as unknown as IncomingMessage;

describe('trusted proxies', () => {
  it('default to loopback in development and test, and to none in sandbox and production', () => {
    assert.deepEqual(trustedProxiesOf({ SESAME_ENV: 'development' }), ['loopback']);
    assert.deepEqual(trustedProxiesOf({ SESAME_ENV: 'test' }), ['loopback']);
    for (const env of ['sandbox', 'production', 'production-eu'])
      assert.deepEqual(trustedProxiesOf({ SESAME_ENV: env }), [], env);
    assert.deepEqual(
      trustedProxiesOf({ SESAME_ENV: 'production', SESAME_TRUSTED_PROXIES: '10.0.0.0/8, 192.0.2.7' }),
      ['10.0.0.0/8', '192.0.2.7'],
    );
  });

  it('a private-address peer is not believed unless configured: X-Forwarded-For from 10.1.2.3 is ignored in production', () => {
    const none = compileTrust(trustedProxiesOf({ SESAME_ENV: 'production' }));
    assert.equal(clientIpOf(fakeReq('10.1.2.3', '198.51.100.9'), none), '10.1.2.3');
    const ingress = compileTrust(['10.0.0.0/8']);
    assert.equal(clientIpOf(fakeReq('10.1.2.3', '198.51.100.9'), ingress), '198.51.100.9');
  });

  it('an IPv4-mapped IPv6 address counts as its IPv4 address', () => {
    assert.equal(normalizeIp('::ffff:192.0.2.1'), '192.0.2.1');
    assert.equal(normalizeIp('::FFFF:198.51.100.9'), '198.51.100.9');
    assert.equal(normalizeIp('2001:DB8::1'), '2001:db8::1');
    assert.equal(clientIpOf(fakeReq('::ffff:192.0.2.1', '')), '192.0.2.1');
  });
});

describe('HTTP server hardening', () => {
  it('cuts a client that sends its headers too slowly (seconds, not minutes)', async () => {
    assert.ok(httpTimeouts.headersTimeoutMs <= 10_000 && httpTimeouts.requestTimeoutMs <= 30_000);
    const app = createHttpApp(logger);
    const server = await listen(app, 0, '127.0.0.1', {
      headersTimeoutMs: 500,
      requestTimeoutMs: 1000,
      checkIntervalMs: 100,
    });
    try {
      const started = Date.now();
      const answer = await new Promise<string>((resolve) => {
        const socket = connect({ host: '127.0.0.1', port: server.port }, () =>
          socket.write('GET / HTTP/1.1\r\nHost: x\r\n'),
        );
        let data = '';
        socket.on('data', (d) => {
          data += String(d);
        });
        socket.on('close', () => resolve(data));
      });
      assert.match(answer, /^HTTP\/1\.1 408/);
      assert.ok(Date.now() - started < 3000);
    } finally {
      await server.close(100);
    }
  });

  it('public documents (fast routes) answer any origin; other routes send no CORS headers', async () => {
    const app = createHttpApp(logger);
    app.use(express.Router().get('/other', (_req, res) => void res.json({})));
    const listener = fastRouteListener(app, [
      {
        fastRoutes: [
          {
            path: '/jwks',
            respond: () => ({ headers: { 'Content-Type': 'application/json' }, body: Buffer.from('{}') }),
          },
        ],
      },
    ]);
    const server = await listen(listener, 0, '127.0.0.1');
    try {
      const headers = { origin: 'https://elsewhere.example' };
      const jwks = await fetch(`http://127.0.0.1:${server.port}/jwks`, { headers });
      assert.equal(jwks.headers.get('access-control-allow-origin'), '*');
      const other = await fetch(`http://127.0.0.1:${server.port}/other`, { headers });
      assert.equal(other.headers.get('access-control-allow-origin'), null);
    } finally {
      await server.close(100);
    }
  });
});
