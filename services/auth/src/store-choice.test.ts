import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { EmbeddedStore } from '@sesame/embedded-store';
import { tempEngines } from '@sesame/embedded-store/testing';
import { MemoryKeyValueStore } from '@sesame/kv';
import { createPasskeyStore } from './passkeys';
import { passkey } from './passkeys/passkeys.contract';
import { createUserStore } from './users';

const tempDir = tempEngines('auth-stores').dir;

describe("auth's repositories without a Mongo URL", () => {
  it('land on the embedded engine when the launcher gives one: people and passkeys are there after a restart', async () => {
    const dir = tempDir();
    let engine = EmbeddedStore.open({ dir });
    const kv = new MemoryKeyValueStore();
    const user = { userId: 'u-1', email: 'ada@example.com', createdAt: 1 };
    const key = passkey(user.userId);
    await createUserStore(undefined, kv, engine).users.create(user);
    await createPasskeyStore(undefined, engine).create(key);
    engine.close();

    engine = EmbeddedStore.open({ dir });
    assert.deepEqual(await createUserStore(undefined, kv, engine).users.findByEmail(user.email), user);
    assert.deepEqual(await createPasskeyStore(undefined, engine).get(key.credentialId), key);
    engine.close();
  });

  it('stay in memory with no engine (SESAME_STORES=memory)', async () => {
    const kv = new MemoryKeyValueStore();
    const user = { userId: 'u-2', createdAt: 1 };
    await createUserStore(undefined, kv).users.create(user);
    assert.equal(await createUserStore(undefined, kv).users.get(user.userId), undefined);
  });
});
