import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, it } from '@jest/globals';
import { MemoryKeyValueStore } from '@sesame/kv';
import { HashedLinks, newLinkToken } from './hashed-links';

const KEY = 'k'.repeat(32);

describe('HashedLinks', () => {
  it('stores the value at <kind>:<HMAC of "<kind>:<token>">, never under the token', async () => {
    const kv = new MemoryKeyValueStore();
    const token = newLinkToken();
    await new HashedLinks(kv, KEY, 'some-link').put(token, 'flow-1', 60_000);
    const hash = createHmac('sha256', KEY).update(`some-link:${token}`).digest('base64url');
    assert.equal(await kv.get(`some-link:${hash}`), 'flow-1');
    assert.equal(await kv.get(`some-link:${token}`), null);
  });

  it('peeks without spending, takes once, deletes; a token of another kind or key finds nothing', async () => {
    const kv = new MemoryKeyValueStore();
    const links = new HashedLinks(kv, KEY, 'some-link');
    const token = newLinkToken();
    await links.put(token, 'flow-1', 60_000);
    assert.equal(await new HashedLinks(kv, KEY, 'other-link').peek(token), undefined);
    assert.equal(await new HashedLinks(kv, 'x'.repeat(32), 'some-link').peek(token), undefined);
    assert.equal(await links.peek(token), 'flow-1');
    assert.equal(await links.take(token), 'flow-1');
    assert.equal(await links.take(token), undefined);
    await links.put(token, 'flow-2', 60_000);
    await links.delete(token);
    assert.equal(await links.peek(token), undefined);
  });

  it('never puts over a live link, and never looks up a token that is not 43 base64url characters', async () => {
    const kv = new MemoryKeyValueStore();
    const links = new HashedLinks(kv, KEY, 'some-link');
    const token = newLinkToken();
    assert.match(token, /^[\w-]{43}$/);
    await links.put(token, 'first', 60_000);
    await links.put(token, 'second', 60_000);
    assert.equal(await links.peek(token), 'first');
    const odd = `${token.slice(0, 42)}=`;
    await kv.set(
      `some-link:${createHmac('sha256', KEY).update(`some-link:${odd}`).digest('base64url')}`,
      'x',
      { ttlMs: 60_000 },
    );
    assert.equal(await links.peek(odd), undefined);
    assert.equal(await links.take(odd), undefined);
  });
});
