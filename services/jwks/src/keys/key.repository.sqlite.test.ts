import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { EmbeddedStore } from '@sesame/embedded-store';
import { tempEngines } from '@sesame/embedded-store/testing';
import { fakeStoredKey, keyRepositoryContract } from './key.repository.contract';
import { SqliteKeyRepository } from './key.repository.sqlite';

const engines = tempEngines('jwks');

// An engine per test: each contract test starts from an empty key set.
keyRepositoryContract('sqlite', async () => {
  return new SqliteKeyRepository(engines.open());
});

describe('SqliteKeyRepository (embedded)', () => {
  it('keeps keys, sealed private parts and their states across a close and a new open', async () => {
    const dir = engines.dir();
    let engine = EmbeddedStore.open({ dir });
    let repo = new SqliteKeyRepository(engine);
    const retired = fakeStoredKey('sig', 1, { status: 'active', activatedAt: 10 });
    const pending = fakeStoredKey('sig', 2);
    const enc = fakeStoredKey('enc', 1, { status: 'active', activatedAt: 11 });
    for (const key of [retired, pending, enc]) assert.equal(await repo.insert(key), true);
    assert.equal(await repo.retire(retired.kid, 20, 5000), true);
    assert.equal(await repo.activate(pending.kid, 21), true);
    engine.close();

    engine = engines.open(dir);
    repo = new SqliteKeyRepository(engine);
    assert.deepEqual(await repo.list(), [
      enc,
      { ...retired, status: 'retired', retiredAt: 20, retireAfter: 5000 },
      { ...pending, status: 'active', activatedAt: 21 },
    ]);
    assert.equal(
      await repo.insert(fakeStoredKey('sig', 2)),
      false,
      'the generation guard holds after reopening',
    );
    assert.equal(await repo.deleteExpired(5000), 1);
    assert.equal((await repo.list()).length, 2);
  });
});
