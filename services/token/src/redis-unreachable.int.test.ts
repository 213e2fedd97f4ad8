import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import {
  type TcpProxy,
  clientCredentials,
  eventually,
  hostPortOf,
  realServers,
  startTcpProxy,
  throughProxy,
} from '@sesame/testing';
import { type TokenHarness, startTokenHarness } from './testing/token-harness';

// The outage is a local TCP proxy in front of the shared Redis, stopped and started here: the real server
// keeps running for every other test. Directory and Keys are faked peers (token-harness).
describe('token on real Redis through a proxy that goes down (faked Directory and Keys peers)', () => {
  const { redisUrl } = realServers();
  let proxy: TcpProxy;
  let h: TokenHarness;
  beforeAll(async () => {
    proxy = await startTcpProxy(hostPortOf(redisUrl));
    h = await startTokenHarness({ redisUrl: throughProxy(redisUrl, proxy) });
    h.directory.addApiCredentials('outage-cred', 'outage-secret', 'tenant-outage');
  });
  afterAll(async () => {
    await proxy.start();
    await h.stop();
    await proxy.close();
  });

  const cc = async () => {
    const res = await clientCredentials(`${h.url}/token`, 'outage-cred', 'outage-secret');
    return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
  };

  it('answers 503 temporarily_unavailable with Retry-After while Redis is down, 200 within 5 s of its return', async () => {
    assert.equal((await cc()).status, 200);
    await proxy.stop();
    const down = await cc();
    assert.equal(down.status, 503);
    assert.equal(down.body.error, 'temporarily_unavailable');
    assert.match(down.headers.get('retry-after') ?? '', /^[1-9]\d*$/);
    await proxy.start();
    const back = Date.now();
    const status = await eventually(
      () => cc().then((r) => r.status),
      (s) => s === 200,
      5000,
      100,
    );
    assert.equal(status, 200, `still ${status} ${Date.now() - back} ms after Redis came back`);
  });

  it('names redis in /readyz while it is down, without the driver message', async () => {
    await proxy.stop();
    try {
      const res = await fetch(`${h.url}/readyz`);
      const body = (await res.json()) as { checks: Record<string, string> };
      assert.equal(res.status, 503);
      assert.deepEqual(body.checks, { redis: 'unavailable', 'signing-key': 'ok' });
    } finally {
      await proxy.start();
    }
    const ready = await eventually(
      () => fetch(`${h.url}/readyz`).then((r) => r.status),
      (s) => s === 200,
      5000,
      100,
    );
    assert.equal(ready, 200);
  });
});
