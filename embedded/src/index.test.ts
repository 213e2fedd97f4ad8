import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { HealthClient } from '@sesame/platform';
import { type Embedded, startEmbedded } from './index';

const env = { LOG_LEVEL: 'silent', SESAME_ENV: 'test' };

describe('startEmbedded with port 0 (in-memory stores)', () => {
  let embedded: Embedded;
  beforeAll(async () => {
    embedded = await startEmbedded({ port: 0, env });
  });
  afterAll(() => embedded?.stop());

  it('serves HTTP on the port the OS picked, and says so in its URL', async () => {
    assert.ok(embedded.port > 0);
    assert.equal(embedded.url, `http://localhost:${embedded.port}`);
    const res = await fetch(`http://127.0.0.1:${embedded.port}/.well-known/openid-configuration`);
    assert.equal(res.status, 200);
    assert.equal(((await res.json()) as { issuer: string }).issuer, embedded.url);
  });

  it('reports the gRPC address each service really listens on, all SERVING', async () => {
    assert.deepEqual(Object.keys(embedded.grpcAddresses).sort(), [
      'activity-log',
      'auth',
      'ciba-notifier',
      'jwks',
      'mgmt',
      'token',
    ]);
    for (const [name, address] of Object.entries(embedded.grpcAddresses)) {
      const health = new HealthClient(address);
      try {
        assert.equal(await health.check(), 'SERVING', name);
      } finally {
        health.close();
      }
    }
  });
});

describe('startEmbedded on a port already taken', () => {
  it('rejects with EADDRINUSE before starting any service', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as { port: number };
    try {
      await assert.rejects(startEmbedded({ port, host: '127.0.0.1', env }), { code: 'EADDRINUSE' });
    } finally {
      blocker.close();
    }
  });
});
