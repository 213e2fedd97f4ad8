import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { afterAll, describe, it } from '@jest/globals';
import { RedisKeyValueStore } from '@sesame/kv';
import { realServers } from '@sesame/testing';
import { invitation } from '../../testing/invitations';
import { RegistrationLinks } from './links';

/** The registration link store on the real Redis: hashed at rest, single use under races, TTL. */
describe('registration links on real Redis', () => {
  const kv = RedisKeyValueStore.connect(realServers().redisUrl, `sesame:auth-int-${randomUUID()}:`);
  const links = new RegistrationLinks(kv, 'an-integration-test-key-0123456789abcdef');
  afterAll(() => kv.close());

  it('stores only the HMAC of the token: no key named by it, the invitation found through it', async () => {
    const token = await links.create(invitation(Date.now()));
    assert.equal(await kv.get(`registration-link:${token}`), null);
    assert.equal((await links.lookup(token))?.email, 'ada@example.com');
  });

  it('gives the invitation to exactly one of ten parallel takes', async () => {
    const token = await links.create(invitation(Date.now()));
    const takes = await Promise.all(Array.from({ length: 10 }, () => links.consume(token)));
    assert.equal(takes.filter((t) => t !== undefined).length, 1);
    assert.equal(await links.lookup(token), undefined);
  });

  it('dies when the invitation expires', async () => {
    const token = await links.create(invitation(Date.now(), 300));
    assert.ok(await links.lookup(token));
    const deadline = Date.now() + 5000;
    while ((await links.lookup(token)) !== undefined && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.equal(await links.consume(token), undefined);
  });
});
