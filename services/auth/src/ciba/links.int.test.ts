import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { afterAll, describe, it } from '@jest/globals';
import { AuthFailureThrottle, RedisKeyValueStore } from '@sesame/kv';
import { OAuthError } from '@sesame/platform';
import { realServers } from '@sesame/testing';
import { CibaLinks } from './links';

/** The CIBA link store and the client-authentication throttle of /authorize_ciba on the real Redis. */
describe('CIBA links on real Redis', () => {
  const kv = RedisKeyValueStore.connect(realServers().redisUrl, `sesame:auth-int-${randomUUID()}:`);
  const links = new CibaLinks(kv, 'an-integration-test-key-0123456789abcdef');
  afterAll(() => kv.close());

  it('stores only the HMAC of the token, finds the flow without spending it, and gives it once', async () => {
    const token = CibaLinks.newToken();
    await links.store(token, 'flow-1', 60_000);
    assert.equal(await kv.get(`ciba-link:${token}`), null, 'the token itself is no key');
    assert.equal(await links.lookup(token), 'flow-1');
    assert.equal(await links.lookup(token), 'flow-1', 'looking spends nothing');
    const takes = await Promise.all(Array.from({ length: 10 }, () => links.consume(token)));
    assert.deepEqual(
      takes.filter((t) => t !== undefined),
      ['flow-1'],
      'ten parallel takes: exactly one wins',
    );
    assert.equal(await links.lookup(token), undefined);
  });

  it('a link dies with its request (TTL)', async () => {
    const token = CibaLinks.newToken();
    await links.store(token, 'flow-2', 300);
    assert.equal(await links.lookup(token), 'flow-2');
    const deadline = Date.now() + 5000;
    while ((await links.lookup(token)) !== undefined && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.equal(await links.lookup(token), undefined);
  });

  it('the failure throttle refuses a caller with 429 once its failures reach the limit', async () => {
    const throttle = new AuthFailureThrottle(kv, { perClientAndIp: 2, perIp: 0, windowMs: 60_000 });
    for (let i = 0; i < 2; i++) await (await throttle.reserve('ciba-client', '198.51.100.1')).failed();
    const refused = await throttle.assertAllowed('ciba-client', '198.51.100.1').catch((e: unknown) => e);
    assert.ok(refused instanceof OAuthError);
    assert.equal(refused.status, 429);
    await throttle.assertAllowed('ciba-client', '198.51.100.2');
  });
});
