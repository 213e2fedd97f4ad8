import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { RedisKeyValueStore } from '@sesame/kv';
import { realServers } from '@sesame/testing';
import { type JwksPods, assertEveryPodSwitchesAtOnce, startJwksPods } from './testing/jwks-pods';

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
    await assertEveryPodSwitchesAtOnce(p, { rotating: 0, others: [1] }, 2_000);
  });
});
