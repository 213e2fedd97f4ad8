import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { MemoryKeyValueStore } from '@sesame/kv';
import { invitation } from '../../testing/invitations';
import { RegistrationLinks } from './links';

/** Records every key and value written, to prove what is (not) at rest. */
class SpyStore extends MemoryKeyValueStore {
  readonly written: string[] = [];
  override async set(key: string, value: string, opts: { ttlMs: number; onlyIfAbsent?: boolean }) {
    this.written.push(key, value);
    return super.set(key, value, opts);
  }
}

describe('registration links (in-memory store)', () => {
  const key = 'a-unit-test-hash-key-0123456789abcdef';

  it('are 256 random bits (43 base64url characters), different every time', async () => {
    const links = new RegistrationLinks(new MemoryKeyValueStore(), key);
    const tokens = await Promise.all(Array.from({ length: 20 }, () => links.create(invitation(Date.now()))));
    for (const t of tokens) assert.match(t, /^[\w-]{43}$/);
    assert.equal(new Set(tokens).size, 20);
  });

  it('keep neither the raw token in a key nor in a value: only its HMAC', async () => {
    const kv = new SpyStore();
    const token = await new RegistrationLinks(kv, key).create(invitation(Date.now()));
    assert.ok(kv.written.length > 0);
    for (const written of kv.written) assert.ok(!written.includes(token), 'the raw token is at rest');
    assert.equal(await kv.get(`registration-link:${token}`), null);
  });

  it('show the invitation without spending it, then give it once (single use)', async () => {
    const links = new RegistrationLinks(new MemoryKeyValueStore(), key);
    const token = await links.create(invitation(Date.now()));
    assert.equal((await links.lookup(token))?.email, 'ada@example.com');
    assert.equal((await links.lookup(token))?.email, 'ada@example.com', 'looking spends nothing');
    assert.equal((await links.consume(token))?.alias, 'ada');
    assert.equal(await links.consume(token), undefined);
    assert.equal(await links.lookup(token), undefined);
  });

  it('expire with the invitation (30 minutes by default)', async () => {
    let now = 1_000_000;
    const links = new RegistrationLinks(new MemoryKeyValueStore(() => now), key);
    const token = await links.create(invitation(now));
    now += 30 * 60_000 - 1;
    assert.ok(await links.lookup(token));
    now += 2;
    assert.equal(await links.lookup(token), undefined);
    assert.equal(await links.consume(token), undefined);
  });

  it('answer nothing for a token of the wrong shape or under another server key', async () => {
    const kv = new MemoryKeyValueStore();
    const token = await new RegistrationLinks(kv, key).create(invitation(Date.now()));
    const links = new RegistrationLinks(kv, key);
    for (const bad of ['', 'x', `${token}x`, token.slice(1), '../../etc']) {
      assert.equal(await links.consume(bad), undefined, bad);
    }
    assert.equal(await new RegistrationLinks(kv, `${key}-other`).lookup(token), undefined);
    assert.ok(await links.lookup(token));
  });
});
