import assert from 'node:assert/strict';
import { afterEach, describe, it } from '@jest/globals';
import express from 'express';
import { HealthClient } from './grpc-health-client';
import { createLogger } from './logger';
import { createMetrics } from './metrics';
import { type RunningService, type ServiceModule, runStandalone } from './service';

const until = async (what: string, probe: () => Promise<boolean>, ms = 5000) => {
  const end = Date.now() + ms;
  while (!(await probe())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

function moduleWithStore(store: { up: boolean }): ServiceModule {
  const routes = express.Router();
  routes.get('/work', (_req, res) => void res.json({ ok: true }));
  return {
    name: 'probe',
    logger: createLogger({ service: 'probe', level: 'silent' }),
    metrics: createMetrics('probe', { defaultMetrics: false }),
    routes,
    readiness: [
      {
        name: 'redis',
        check: async () => {
          if (!store.up) throw new Error('connect ECONNREFUSED');
        },
      },
    ],
    stop: async () => {},
  };
}

describe('runStandalone: what a pod promises Kubernetes', () => {
  const cleanup: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const fn of cleanup.splice(0)) await fn();
  });

  async function start(store: { up: boolean }, extra: { shutdownDelayMs?: number } = {}) {
    const running: RunningService = await runStandalone(moduleWithStore(store), {
      httpPort: 0,
      grpcPort: 0,
      host: '127.0.0.1',
      shutdownTimeoutMs: 2000,
      readinessIntervalMs: 50,
      ...extra,
    });
    const health = new HealthClient(`127.0.0.1:${running.grpcPort}`);
    cleanup.push(() => health.close());
    const base = `http://127.0.0.1:${running.httpPort}`;
    return { running, health, base };
  }

  it('a service whose store is unreachable reports NOT_SERVING on grpc.health and 503 on /readyz', async () => {
    const { running, health, base } = await start({ up: false });
    cleanup.push(() => running.stop());
    assert.equal(await health.check(''), 'NOT_SERVING');
    const res = await fetch(`${base}/readyz`);
    assert.equal(res.status, 503);
    assert.deepEqual(await res.json(), { status: 'unavailable', checks: { redis: 'unavailable' } });
  });

  it('the periodic checks move gRPC health both ways as the store goes and comes back', async () => {
    const store = { up: true };
    const { running, health } = await start(store);
    cleanup.push(() => running.stop());
    assert.equal(await health.check(''), 'SERVING');
    store.up = false;
    await until('NOT_SERVING', async () => (await health.check('')) === 'NOT_SERVING');
    store.up = true;
    await until('SERVING', async () => (await health.check('')) === 'SERVING');
  });

  it('on stop: NOT_SERVING at once, still serving during the delay, then closed', async () => {
    const { running, health, base } = await start({ up: true }, { shutdownDelayMs: 400 });
    assert.equal(await health.check(''), 'SERVING');
    const stopped = running.stop();
    const at = Date.now();
    assert.equal(await health.check(''), 'NOT_SERVING');
    assert.equal((await fetch(`${base}/readyz`)).status, 503);
    const during = await fetch(`${base}/work`, { headers: { connection: 'close' } });
    assert.equal(during.status, 200, 'still serves while endpoint removal propagates');
    assert.ok(Date.now() - at < 400);
    await stopped;
    assert.ok(Date.now() - at >= 390, 'waited the delay before closing');
    await assert.rejects(fetch(`${base}/work`), 'closed after the delay');
  });
});
