import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { type Embedded, startEmbedded } from './index';

/** Issue 26 finding 9: the embedded default served /metrics on its public port. */
describe('startEmbedded: metrics on the ops port only', () => {
  let embedded: Embedded;
  beforeAll(async () => {
    embedded = await startEmbedded({ port: 0, env: { LOG_LEVEL: 'silent', SESAME_ENV: 'development' } });
  });
  afterAll(() => embedded?.stop());

  it('the public port answers 404 for /metrics and /ops/<service>/metrics; health and readiness stay', async () => {
    for (const path of ['/metrics', '/ops/auth/metrics', '/ops/token/metrics', '/ops/mgmt/metrics'])
      assert.equal((await fetch(`${embedded.url}${path}`)).status, 404, path);
    for (const path of ['/healthz', '/readyz', '/ops/auth/healthz', '/ops/auth/readyz'])
      assert.equal((await fetch(`${embedded.url}${path}`)).status, 200, path);
  });

  it('the ops port, another port, serves every service’s metrics', async () => {
    assert.notEqual(embedded.opsPort, embedded.port);
    for (const service of ['auth', 'token', 'mgmt']) {
      const res = await fetch(`${embedded.opsUrl}/ops/${service}/metrics`);
      assert.equal(res.status, 200);
      assert.match(await res.text(), new RegExp(`service="${service}"`));
    }
    assert.equal((await fetch(`${embedded.opsUrl}/metrics`)).status, 200);
  });
});
