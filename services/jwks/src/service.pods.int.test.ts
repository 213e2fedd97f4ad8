import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { RedisKeyValueStore } from '@sesame/kv';
import { realServers } from '@sesame/testing';
import { type JwksPods, startJwksPods } from './testing/jwks-pods';

// Two pods, each with its own Redis connections (as two processes), signalling through Redis pub/sub. The
// poll is a minute: only the signal can make the other pod switch within the test.
describe('GET /jwks on two pods signalling key changes through real Redis', () => {
  const namespace = `sesame:jwks-pods-${randomUUID().slice(0, 8)}:`;
  const kvs = [0, 1].map(() => RedisKeyValueStore.connect(realServers().redisUrl, namespace));
  let p: JwksPods;
  beforeAll(async () => {
    p = await startJwksPods({ count: 2, pollMs: 60_000, kvOf: (i) => kvs[i]! });
  });
  afterAll(async () => {
    await p.stop();
    await Promise.all(kvs.map((kv) => kv.close()));
  });

  it('the other pod answers the new key set and ETag at once after a rotation, and 304 to it', async () => {
    const before = await p.jwksOf(1);
    const rotation = await p.rotateOn(0);
    const rotatedAt = Date.now();
    const onA = await p.jwksOf(0, before.etag);
    assert.equal(onA.status, 200);
    assert.ok(onA.text.includes(rotation.signingKid) && onA.text.includes(rotation.encryptionKid));
    const onB = await p.waitForEtag(1, onA.etag, 2_000);
    assert.equal(onB.etag, onA.etag);
    assert.equal(onB.text, onA.text);
    assert.ok(Date.now() - rotatedAt < 3_000, 'within a fraction of the one-minute poll');
    assert.equal((await p.jwksOf(1, before.etag)).status, 200, 'the old ETag no longer matches');
    assert.equal((await p.jwksOf(1, onA.etag)).status, 304);
  });
});
