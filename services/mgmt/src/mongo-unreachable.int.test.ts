import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import {
  type TcpProxy,
  eventually,
  hostPortOf,
  isolatedMongoUrl,
  realServers,
  startTcpProxy,
  throughProxy,
} from '@sesame/testing';
import { INT_ADMIN_KEY, type RealMgmt, startRealMgmt } from './testing/real-mgmt';

// The outage is a local TCP proxy in front of the shared MongoDB-wire server, stopped and started here: the
// real server keeps running for every other test. Grants, Users, Keys and ActivityLogs are faked peers.
describe('mgmt on real Mongo through a proxy that goes down (faked peers)', () => {
  const { mongoUrl } = realServers();
  let proxy: TcpProxy;
  let mgmt: RealMgmt;

  beforeAll(async () => {
    proxy = await startTcpProxy(hostPortOf(mongoUrl));
    mgmt = await startRealMgmt({
      SESAME_MONGO_URL: throughProxy(isolatedMongoUrl(mongoUrl, 'mgmt-mongo-down-int'), proxy),
    });
  });
  afterAll(async () => {
    await proxy?.start();
    await mgmt?.stop();
    await proxy?.close();
  });

  const listTenants = () =>
    fetch(`${mgmt.url}/api/v1/admin/tenants`, { headers: { authorization: `Bearer ${INT_ADMIN_KEY}` } });

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
    const ready = await fetch(`${mgmt.url}/readyz`);
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
