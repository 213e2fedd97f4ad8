import assert from 'node:assert/strict';
import { beforeAll, describe, it } from '@jest/globals';
import { startedForSuite } from '@sesame/testing/suite';
import { errorOf, startMgmt } from '../../testing/mgmt-harness';

/** Issue 26 finding 4: the ping endpoint could be aimed inside (accepted in every environment). */
describe('admin API: the CIBA notification endpoint may not point inside', () => {
  const h = startedForSuite(() => startMgmt());
  let base: string;
  beforeAll(async () => {
    base = `/api/v1/admin/tenants/${await h.createTenant('T')}/applications`;
  });

  it.each([
    'https://169.254.169.254/latest/meta-data/',
    'https://2852039166/latest',
    'https://metadata.google.internal/computeMetadata/v1/',
    'https://[fd00::1]/ping',
    'https://[fe80::1]/ping',
    'https://10.0.0.1/ping',
    'https://10.1/ping',
    'https://192.168.0.10/ping',
    'https://[::ffff:10.0.0.1]/ping',
    'https://user:pw@rp.example/ping',
  ])('400 for %s, naming ciba.notificationEndpoint', async (notificationEndpoint) => {
    const res = await h.admin('POST', base, { name: 'Bad', ciba: { mode: 'ping', notificationEndpoint } });
    assert.equal(res.status, 400);
    const error = await errorOf(res);
    assert.equal(error.code, 'invalid_request');
    assert.match(
      error.fields?.['ciba.notificationEndpoint'] ?? '',
      /^must be reachable on the public internet: /,
    );
  });

  it('accepts a public https endpoint, and loopback (refused at send time unless allowed)', async () => {
    for (const notificationEndpoint of ['https://rp.example/ciba', 'http://127.0.0.1:4000/ciba']) {
      const res = await h.admin('POST', base, { name: 'Ok', ciba: { mode: 'ping', notificationEndpoint } });
      assert.equal(res.status, 201, JSON.stringify(await res.clone().json()));
    }
  });
});
