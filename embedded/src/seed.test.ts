import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { type Embedded, startEmbedded } from './index';
import { seedDemoOnce } from './seed';

/** Issue 36: the demo seed runs on an empty store only, so a restart keeps the demo ids and secrets. */
describe('the demo seed runs on an empty platform only', () => {
  let embedded: Embedded;
  const tenants = async () => {
    const res = await fetch(`${embedded.url}/api/v1/admin/tenants`, {
      headers: { authorization: `Bearer ${embedded.adminKey}` },
    });
    return ((await res.json()) as { tenants: Array<{ tenantId: string; name: string }> }).tenants;
  };
  beforeAll(async () => {
    embedded = await startEmbedded({ port: 0, env: { LOG_LEVEL: 'silent', SESAME_ENV: 'development' } });
  });
  afterAll(() => embedded?.stop());

  it('seeds an empty platform once; asked again it seeds nothing and the first demo tenant stays the only one', async () => {
    assert.deepEqual(await tenants(), []);
    const demo = await seedDemoOnce(embedded.url, embedded.adminKey);
    assert.ok(demo?.clientId);
    assert.equal(await seedDemoOnce(embedded.url, embedded.adminKey), undefined);
    assert.deepEqual(
      (await tenants()).map((t) => t.tenantId),
      [demo!.tenantId],
    );
  });
});
