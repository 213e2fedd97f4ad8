import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { MemoryKeyValueStore } from '@sesame/kv';
import { type JwksPods, assertEveryPodSwitchesAtOnce, startJwksPods } from './testing/jwks-pods';

// Without a shared KV, pods learn of a rotation made by another pod by reloading the shared store every poll.
const POLL_MS = 100;

describe('GET /jwks on two pods sharing one key store', () => {
  let p: JwksPods;
  beforeAll(async () => {
    p = await startJwksPods({ count: 2, pollMs: POLL_MS });
  });
  afterAll(() => p.stop());

  it('both answer the new key set and ETag once the store has it: at once on the rotating pod, within a poll on the other', async () => {
    const [a, b] = [await p.jwksOf(0), await p.jwksOf(1)];
    assert.equal(a.etag, b.etag);
    assert.equal(a.text, b.text);
    assert.equal((await p.jwksOf(1, b.etag)).status, 304);

    const rotation = await p.rotateOn(0);
    const rotatedAt = Date.now();

    const onA = await p.jwksOf(0, a.etag);
    assert.equal(onA.status, 200, 'the old ETag no longer matches on the rotating pod');
    assert.notEqual(onA.etag, a.etag);
    assert.ok(onA.text.includes(rotation.signingKid) && onA.text.includes(rotation.encryptionKid));

    // The other pod may first load the store between the two inserts of the rotation (sig, then enc).
    let onB = await p.jwksOf(1, a.etag);
    while (onB.etag !== onA.etag && Date.now() - rotatedAt < 20 * POLL_MS) {
      await new Promise((r) => setTimeout(r, 10));
      onB = await p.jwksOf(1, a.etag);
    }
    assert.equal(onB.status, 200, 'the other pod answers the new key set');
    assert.equal(onB.etag, onA.etag);
    assert.equal(onB.text, onA.text);
    for (const i of [0, 1]) assert.equal((await p.jwksOf(i, onA.etag)).status, 304);
  });
});

// With one KV (the in-memory adapter, as the pods of one process share it), the rotating pod's signal makes
// every other pod reload at once: the poll is a minute, far longer than the test waits.
describe('GET /jwks on three pods sharing one key store and one KV', () => {
  const kv = new MemoryKeyValueStore();
  let p: JwksPods;
  beforeAll(async () => {
    p = await startJwksPods({ count: 3, pollMs: 60_000, kvOf: () => kv });
  });
  afterAll(async () => {
    await p.stop();
    await kv.close();
  });

  it('every other pod answers the new key set and ETag at once after a rotation, not on its poll', async () => {
    await assertEveryPodSwitchesAtOnce(p, { rotating: 1, others: [0, 2] }, 1_000);
  });
});
