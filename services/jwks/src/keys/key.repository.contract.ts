import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from '@jest/globals';
import type { KeyUse, StoredKey } from './key';
import type { KeyRepository } from './key.repository';

/** A stored key with made-up material: the repository never looks inside it. */
export function fakeStoredKey(use: KeyUse, generation: number, change: Partial<StoredKey> = {}): StoredKey {
  return {
    kid: randomUUID(),
    use,
    alg: use === 'sig' ? 'RS256' : 'RSA-OAEP-256',
    generation,
    publicJwk: { kty: 'RSA', n: `n-${generation}`, e: 'AQAB' },
    x5c: ['MIIB'],
    privateKeyEnc: { iv: 'iv', tag: 'tag', ciphertext: 'sealed', kekId: 'kek1' },
    status: 'pending',
    createdAt: 1_700_000_000_000 + generation,
    ...change,
  };
}

/** The behaviour every KeyRepository adapter must have; run against the in-memory and the Mongo adapter. */
export function keyRepositoryContract(adapter: string, make: () => Promise<KeyRepository>): void {
  describe(`KeyRepository contract: ${adapter}`, () => {
    it('returns an inserted key exactly as given', async () => {
      const repo = await make();
      const key = fakeStoredKey('sig', 1, { status: 'active', activatedAt: 1_700_000_000_500 });
      assert.equal(await repo.insert(key), true);
      assert.deepEqual(await repo.list(), [key]);
    });

    it('returns an ES256 key (EC public key: crv, x, y) exactly as given', async () => {
      const repo = await make();
      const key = fakeStoredKey('sig', 2, {
        alg: 'ES256',
        publicJwk: { kty: 'EC', crv: 'P-256', x: 'x-2', y: 'y-2' },
        status: 'active',
        activatedAt: 1_700_000_000_700,
      });
      assert.equal(await repo.insert(key), true);
      assert.deepEqual(await repo.list(), [key]);
    });

    it("shares the generation counter of a use across its algs: a PS256 key cannot take an RS256 key's generation", async () => {
      const repo = await make();
      assert.equal(await repo.insert(fakeStoredKey('sig', 1)), true);
      assert.equal(await repo.insert(fakeStoredKey('sig', 1, { alg: 'PS256' })), false);
      assert.equal(await repo.insert(fakeStoredKey('sig', 2, { alg: 'PS256' })), true);
    });

    it('refuses a second key with the same use and generation, and a duplicate kid', async () => {
      const repo = await make();
      const first = fakeStoredKey('sig', 1);
      assert.equal(await repo.insert(first), true);
      assert.equal(await repo.insert(fakeStoredKey('sig', 1)), false);
      assert.equal(await repo.insert(fakeStoredKey('enc', 7, { kid: first.kid })), false);
      assert.equal(
        await repo.insert(fakeStoredKey('enc', 1)),
        true,
        'the same generation of the other use is fine',
      );
      assert.deepEqual(
        (await repo.list()).map((k) => [k.use, k.generation]),
        [
          ['enc', 1],
          ['sig', 1],
        ],
      );
    });

    it('lets exactly one of two concurrent inserts of the next generation win', async () => {
      const repo = await make();
      const results = await Promise.all([
        repo.insert(fakeStoredKey('sig', 3)),
        repo.insert(fakeStoredKey('sig', 3)),
      ]);
      assert.deepEqual(results.sort(), [false, true]);
      assert.equal((await repo.list()).length, 1);
    });

    it('activates a pending key once, and only a pending key', async () => {
      const repo = await make();
      const key = fakeStoredKey('sig', 1);
      await repo.insert(key);
      const results = await Promise.all([repo.activate(key.kid, 1000), repo.activate(key.kid, 2000)]);
      assert.deepEqual(results.sort(), [false, true]);
      const [stored] = await repo.list();
      assert.equal(stored?.status, 'active');
      assert.ok(stored?.activatedAt === 1000 || stored?.activatedAt === 2000);
      assert.equal(await repo.activate('no-such-kid', 3000), false);
    });

    it('retires an active key once with its retireAfter, and never a pending key', async () => {
      const repo = await make();
      const active = fakeStoredKey('sig', 1, { status: 'active', activatedAt: 10 });
      const pending = fakeStoredKey('sig', 2);
      await repo.insert(active);
      await repo.insert(pending);
      assert.equal(await repo.retire(pending.kid, 100, 5000), false);
      assert.equal(await repo.retire(active.kid, 100, 5000), true);
      assert.equal(await repo.retire(active.kid, 200, 9000), false);
      const [retired, stillPending] = await repo.list();
      assert.deepEqual(retired, { ...active, status: 'retired', retiredAt: 100, retireAfter: 5000 });
      assert.equal(stillPending?.status, 'pending');
    });

    it('deletes retired keys whose retireAfter has passed, and nothing else', async () => {
      const repo = await make();
      const expired = fakeStoredKey('sig', 1, {
        status: 'retired',
        activatedAt: 1,
        retiredAt: 2,
        retireAfter: 100,
      });
      const published = fakeStoredKey('sig', 2, {
        status: 'retired',
        activatedAt: 3,
        retiredAt: 4,
        retireAfter: 101,
      });
      const active = fakeStoredKey('sig', 3, { status: 'active', activatedAt: 5 });
      for (const k of [expired, published, active]) await repo.insert(k);
      assert.equal(await repo.deleteExpired(100), 1);
      assert.deepEqual(
        (await repo.list()).map((k) => k.kid),
        [published.kid, active.kid],
      );
    });
  });
}
