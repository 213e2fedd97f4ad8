import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { type RunningService, createLogger, runStandalone } from '@sesame/platform';
import {
  type TcpProxy,
  eventually,
  hostPortOf,
  isolatedMongoUrl,
  realServers,
  startTcpProxy,
  throughProxy,
} from '@sesame/testing';
import { configSchema } from './config';
import { createMgmtService } from './service';
import { FakePeers } from './testing/fake-peers';

const ADMIN_KEY = 'int-admin-key-0123456789abcdef';

// The outage is a local TCP proxy in front of the shared MongoDB-wire server, stopped and started here: the
// real server keeps running for every other test. Grants, Users, Keys and ActivityLogs are faked peers.
describe('mgmt on real Mongo through a proxy that goes down (faked peers)', () => {
  const { mongoUrl } = realServers();
  let proxy: TcpProxy;
  let peers: FakePeers;
  let running: RunningService;
  let url: string;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'sesame-mgmt-mongo-down-'));
    proxy = await startTcpProxy(hostPortOf(mongoUrl));
    peers = await new FakePeers({ now: () => Date.now() }).start();
    const config = configSchema.parse({
      SESAME_ENV: 'test',
      LOG_LEVEL: 'silent',
      SESAME_ADMIN_KEY: ADMIN_KEY,
      SESAME_MONGO_URL: throughProxy(isolatedMongoUrl(mongoUrl, 'mgmt-mongo-down-int'), proxy),
      SESAME_DATA_DIR: dataDir,
      SESAME_USERS_ADDR: peers.address,
      SESAME_KEYS_ADDR: peers.address,
      SESAME_GRANTS_ADDR: peers.address,
      SESAME_ACTIVITY_LOGS_ADDR: peers.address,
    });
    const mod = await createMgmtService(config, {
      logger: createLogger({ service: 'mgmt', level: 'silent' }),
    });
    running = await runStandalone(mod, {
      httpPort: 0,
      grpcPort: 0,
      host: '127.0.0.1',
      shutdownTimeoutMs: 2000,
    });
    url = `http://127.0.0.1:${running.httpPort}`;
  });
  afterAll(async () => {
    await proxy?.start();
    await running?.stop();
    await peers?.stop();
    await proxy?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const listTenants = () =>
    fetch(`${url}/api/v1/admin/tenants`, { headers: { authorization: `Bearer ${ADMIN_KEY}` } });

  it('answers 503 with the management error object and Retry-After while Mongo is down, 200 within 5 s of its return', async () => {
    assert.equal((await listTenants()).status, 200);
    await proxy.stop();
    const started = Date.now();
    const down = await listTenants();
    const downMs = Date.now() - started;
    assert.equal(down.status, 503);
    assert.deepEqual(await down.json(), {
      status: 'error',
      error: { code: 'temporarily_unavailable', message: 'the service is unavailable; retry later' },
    });
    assert.match(down.headers.get('retry-after') ?? '', /^[1-9]\d*$/);
    const ready = await fetch(`${url}/readyz`);
    assert.equal(ready.status, 503);
    assert.deepEqual(((await ready.json()) as { checks: unknown }).checks, { mongo: 'unavailable' });
    await proxy.start();
    const back = Date.now();
    const status = await eventually(
      () => listTenants().then((r) => r.status),
      (s) => s === 200,
      5000,
      100,
    );
    assert.equal(status, 200, `still ${status} ${Date.now() - back} ms after Mongo came back`);
    process.stdout.write(`mongo down: 503 after ${downMs} ms; back: 200 after ${Date.now() - back} ms\n`);
  });
});
