import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { EmbeddedStore } from '@sesame/embedded-store';
import { tempEngines } from '@sesame/embedded-store/testing';
import { MemoryKeyValueStore, SqliteKeyValueStore } from '@sesame/kv';
import { sha256 } from '@sesame/platform';
import { AccessTokenStore } from './access-tokens';
import type { AccessTokenGrant } from './types';

const tempDir = tempEngines('access-tokens').dir;
const grant = { clientId: 'c1', tenantId: 't1', scope: 'openid' } as unknown as AccessTokenGrant;

function sqliteKv() {
  const engine = EmbeddedStore.open({ dir: tempDir() });
  return { engine, kv: new SqliteKeyValueStore(engine, 'sesame:token:') };
}

describe('AccessTokenStore', () => {
  it('on Redis and memory: a token is 43 random characters keyed access:<sha256>', async () => {
    const kv = new MemoryKeyValueStore();
    const store = new AccessTokenStore(kv);
    const { token, hash } = await store.mint(grant, 60_000);
    assert.match(token, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(hash, sha256(token));
    assert.equal(await kv.get(`access:${sha256(token)}`), JSON.stringify(grant));
    assert.deepEqual(await store.find(token), grant);
  });

  it('on the embedded engine: a token starts with its minting time and its row key sorts by that time', async () => {
    const { engine, kv } = sqliteKv();
    let now = Date.UTC(2026, 10, 29, 8, 0, 0);
    const store = new AccessTokenStore(kv, () => now);
    const minted = [];
    for (let i = 0; i < 5; i++) {
      minted.push(await store.mint(grant, 60_000));
      now += 1;
    }
    for (const [i, { token, hash }] of minted.entries()) {
      assert.equal(token.length, 52);
      const prefix = (Date.UTC(2026, 10, 29, 8, 0, 0) + i).toString(36).padStart(9, '0');
      assert.equal(token.slice(0, 9), prefix);
      assert.equal(hash, `${prefix}:${sha256(token)}`);
      assert.deepEqual(await store.find(token), grant);
    }
    const keys = engine.db
      .prepare("SELECT key FROM kv_entries WHERE key LIKE 'access:%' ORDER BY key")
      .pluck()
      .all();
    assert.deepEqual(
      Array.from(keys as string[]),
      minted.map(({ hash }) => `access:${hash}`),
    );
    await kv.close();
    engine.close();
  });

  it('on the embedded engine: a token minted before time prefixes (43 characters) is still found', async () => {
    const { engine, kv } = sqliteKv();
    const old = await new AccessTokenStore(new MemoryKeyValueStore()).mint(grant, 60_000);
    await kv.set(`access:${sha256(old.token)}`, JSON.stringify(grant), { ttlMs: 60_000 });
    const store = new AccessTokenStore(kv);
    assert.deepEqual(await store.find(old.token), grant);
    await store.revoke([old.hash]);
    assert.equal(await store.find(old.token), null);
    await kv.close();
    engine.close();
  });

  it('revoking by the minted hash ends the token; a changed time prefix or random part finds nothing', async () => {
    const { engine, kv } = sqliteKv();
    const store = new AccessTokenStore(kv);
    const { token, hash } = await store.mint(grant, 60_000);
    const otherTime = `${(Number.parseInt(token.slice(0, 9), 36) + 1).toString(36).padStart(9, '0')}${token.slice(9)}`;
    assert.equal(await store.find(otherTime), null);
    assert.equal(await store.find(`${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`), null);
    await store.revoke([hash]);
    assert.equal(await store.find(token), null);
    await kv.close();
    engine.close();
  });
});
