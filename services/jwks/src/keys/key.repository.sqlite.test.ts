import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, it } from '@jest/globals';
import { EmbeddedStore } from '@sesame/embedded-store';
import { fakeStoredKey, keyRepositoryContract } from './key.repository.contract';
import { SqliteKeyRepository } from './key.repository.sqlite';

const dirs: string[] = [];
const engines: EmbeddedStore[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'sesame-jwks-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const engine of engines) engine.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

// An engine per test: each contract test starts from an empty key set.
keyRepositoryContract('sqlite', async () => {
  const engine = EmbeddedStore.open({ dir: tempDir() });
  engines.push(engine);
  return new SqliteKeyRepository(engine);
});

describe('SqliteKeyRepository (embedded)', () => {
  it('keeps keys, sealed private parts and their states across a close and a new open', async () => {
    const dir = tempDir();
    let engine = EmbeddedStore.open({ dir });
    let repo = new SqliteKeyRepository(engine);
    const retired = fakeStoredKey('sig', 1, { status: 'active', activatedAt: 10 });
    const pending = fakeStoredKey('sig', 2);
    const enc = fakeStoredKey('enc', 1, { status: 'active', activatedAt: 11 });
    for (const key of [retired, pending, enc]) assert.equal(await repo.insert(key), true);
    assert.equal(await repo.retire(retired.kid, 20, 5000), true);
    assert.equal(await repo.activate(pending.kid, 21), true);
    engine.close();

    engine = EmbeddedStore.open({ dir });
    engines.push(engine);
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
