import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { clientCredentials, realServers, statusWithin } from '@sesame/testing';
import { behindProxyForSuite } from '@sesame/testing/suite';
import { startTokenHarness } from './testing/token-harness';

// The outage is a local TCP proxy in front of the shared Redis, stopped and started here: the real server
// keeps running for every other test. Directory and Keys are faked peers (token-harness).
describe('token on real Redis through a proxy that goes down (faked Directory and Keys peers)', () => {
  const outage = behindProxyForSuite(realServers().redisUrl, async (redisUrl) => {
    const h = await startTokenHarness({ redisUrl });
    h.directory.addApiCredentials('outage-cred', 'outage-secret', 'tenant-outage');
    return h;
  });

  const cc = async () => {
    const res = await clientCredentials(`${outage.harness.url}/token`, 'outage-cred', 'outage-secret');
    return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
  };

  it('answers 503 temporarily_unavailable with Retry-After while Redis is down, 200 within 5 s of its return', async () => {
    assert.equal((await cc()).status, 200);
    await outage.proxy.stop();
    const down = await cc();
    assert.equal(down.status, 503);
    assert.equal(down.body.error, 'temporarily_unavailable');
    assert.match(down.headers.get('retry-after') ?? '', /^[1-9]\d*$/);
    await outage.proxy.start();
    const back = Date.now();
    const status = await statusWithin(cc, 200, 5000);
    assert.equal(status, 200, `still ${status} ${Date.now() - back} ms after Redis came back`);
  });

  it('names redis in /readyz while it is down, without the driver message', async () => {
    await outage.proxy.stop();
    try {
      const res = await fetch(`${outage.harness.url}/readyz`);
      const body = (await res.json()) as { checks: Record<string, string> };
      assert.equal(res.status, 503);
      assert.deepEqual(body.checks, { redis: 'unavailable', 'signing-key': 'ok' });
    } finally {
      await outage.proxy.start();
    }
    const ready = await statusWithin(() => fetch(`${outage.harness.url}/readyz`), 200, 5000);
    assert.equal(ready, 200);
  });
});
