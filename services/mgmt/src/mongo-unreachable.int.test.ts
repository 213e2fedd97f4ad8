import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { isolatedMongoUrl, realServers, statusWithin } from '@sesame/testing';
import { behindProxyForSuite } from '@sesame/testing/suite';
import { INT_ADMIN_KEY, startRealMgmt } from './testing/real-mgmt';

// The outage is a local TCP proxy in front of the shared MongoDB-wire server, stopped and started here: the
// real server keeps running for every other test. Grants, Users, Keys and ActivityLogs are faked peers.
describe('mgmt on real Mongo through a proxy that goes down (faked peers)', () => {
  const mongoUrl = isolatedMongoUrl(realServers().mongoUrl, 'mgmt-mongo-down-int');
  const outage = behindProxyForSuite(mongoUrl, (url) => startRealMgmt({ SESAME_MONGO_URL: url }));

  const listTenants = () =>
    fetch(`${outage.harness.url}/api/v1/admin/tenants`, {
      headers: { authorization: `Bearer ${INT_ADMIN_KEY}` },
    });

  it('answers 503 with the management error object and Retry-After while Mongo is down, 200 within 5 s of its return', async () => {
    assert.equal((await listTenants()).status, 200);
    await outage.proxy.stop();
    const started = Date.now();
    const down = await listTenants();
    const downMs = Date.now() - started;
    assert.equal(down.status, 503);
    assert.deepEqual(await down.json(), {
      status: 'error',
      error: { code: 'temporarily_unavailable', message: 'the service is unavailable; retry later' },
    });
    assert.match(down.headers.get('retry-after') ?? '', /^[1-9]\d*$/);
    const ready = await fetch(`${outage.harness.url}/readyz`);
    assert.equal(ready.status, 503);
    assert.deepEqual(((await ready.json()) as { checks: unknown }).checks, { mongo: 'unavailable' });
    await outage.proxy.start();
    const back = Date.now();
    const status = await statusWithin(listTenants, 200, 5000);
    assert.equal(status, 200, `still ${status} ${Date.now() - back} ms after Mongo came back`);
    process.stdout.write(`mongo down: 503 after ${downMs} ms; back: 200 after ${Date.now() - back} ms\n`);
  });
});
