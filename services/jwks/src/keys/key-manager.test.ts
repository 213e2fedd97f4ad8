import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from '@jest/globals';
import { createLogger } from '@sesame/platform';
import type { KeyTimings } from './key';
import { createKeyEncryptionKey } from './key-encryption';
import { type ActiveSigningKey, KeyManager } from './key-manager';
import { keyMaterialGenerator } from './key-material';
import { MemoryKeyRepository } from './key.repository';

const T = Date.UTC(2026, 0, 1);
const timings: KeyTimings = { rotationIntervalMs: 100_000, publishDelayMs: 1_000, retireAfterMs: 5_000 };
const logger = createLogger({ service: 'test', level: 'silent' });
const kekBytes = randomBytes(32);

function setup(repo = new MemoryKeyRepository(), clock = { t: T }) {
  const time = { now: () => clock.t };
  const manager = new KeyManager({
    repo,
    kek: createKeyEncryptionKey(kekBytes),
    clock: time,
    timings,
    generate: keyMaterialGenerator(time),
    logger,
  });
  return { manager, repo, clock };
}
const jwks = (m: KeyManager) =>
  JSON.parse(m.jwksBody().toString()) as { keys: Array<Record<string, unknown>> };
const published = (m: KeyManager) => jwks(m).keys.map((k) => `${k.use}:${k.kid}`);
/** The published RS256 keys (the spec's slot), as use:kid. */
const publishedRs256 = (m: KeyManager) =>
  jwks(m)
    .keys.filter((k) => k.alg === 'RS256')
    .map((k) => `${k.use}:${k.kid}`);

describe('key manager', () => {
  it('creates one active key per slot on first start (sig RS256, PS256, ES256; enc) and publishes exactly those', async () => {
    const { manager, repo } = setup();
    await manager.reconcile();
    const stored = await repo.list();
    assert.deepEqual(
      stored.map((k) => [k.use, k.alg, k.status, k.generation]),
      [
        ['enc', 'RSA-OAEP-256', 'active', 1],
        ['sig', 'RS256', 'active', 1],
        ['sig', 'PS256', 'active', 2],
        ['sig', 'ES256', 'active', 3],
      ],
    );
    const body = jwks(manager);
    assert.deepEqual(
      body.keys.map((k) => [k.use, k.alg]),
      [
        ['sig', 'RS256'],
        ['sig', 'PS256'],
        ['sig', 'ES256'],
        ['enc', 'RSA-OAEP-256'],
      ],
    );
    for (const key of body.keys)
      assert.deepEqual(
        Object.keys(key),
        key.kty === 'EC'
          ? ['kty', 'crv', 'x', 'y', 'use', 'kid', 'x5c', 'alg']
          : ['kty', 'e', 'use', 'kid', 'x5c', 'alg', 'n'],
      );
    assert.equal(body.keys[2]?.crv, 'P-256');
    const rs256 = stored.find((k) => k.alg === 'RS256')?.kid;
    assert.equal(manager.activeSigningKey()?.kid, rs256, 'the default stays the RS256 key');
    assert.deepEqual(
      manager.activeSigningKeys().map((k) => [k.alg, k.kid]),
      ['RS256', 'PS256', 'ES256'].map((alg) => [alg, stored.find((k) => k.alg === alg)?.kid]),
    );
  });

  it('stores no private key in clear', async () => {
    const { manager, repo } = setup();
    await manager.reconcile();
    const signing = manager.activeSigningKey()!;
    const pemBody = signing.privateKeyPem.split('\n')[1]!;
    const stored = JSON.stringify(await repo.list());
    assert.doesNotMatch(stored, /PRIVATE KEY/);
    assert.equal(stored.includes(pemBody), false);
  });

  it('lets two pods starting on one empty store agree on a single key per use', async () => {
    const repo = new MemoryKeyRepository();
    const a = setup(repo).manager;
    const b = setup(repo).manager;
    await Promise.all([a.reconcile(), b.reconcile()]);
    assert.equal((await repo.list()).length, 4);
    assert.equal(a.activeSigningKey()?.kid, b.activeSigningKey()?.kid);
    assert.deepEqual(published(a), published(b));
  });

  it('rotates: publishes new keys first, activates after the delay, keeps the old key until retireAfter', async () => {
    const { manager, clock } = setup();
    await manager.reconcile();
    const first = manager.activeSigningKey()!;
    const seen: ActiveSigningKey[] = [];
    manager.watchSigningKey((ks) => seen.push(ks[0]!));

    clock.t = T + 10_000;
    const rotation = await manager.rotate();
    assert.equal(rotation.activatesAt, T + 11_000);
    assert.equal(manager.activeSigningKey()?.kid, first.kid, 'the new key signs nothing yet');
    assert.deepEqual(publishedRs256(manager), [`sig:${first.kid}`, `sig:${rotation.signing.kid}`]);
    assert.equal(published(manager).length, 8, 'every slot publishes its pending key beside its active one');

    clock.t = T + 10_999;
    await manager.reconcile();
    assert.equal(manager.activeSigningKey()?.kid, first.kid);
    assert.equal(seen.length, 0);

    clock.t = T + 11_000;
    await manager.reconcile();
    assert.equal(manager.activeSigningKey()?.kid, rotation.signing.kid);
    assert.deepEqual(
      seen.map((k) => [k.kid, k.activatedAt]),
      [[rotation.signing.kid, T + 11_000]],
    );
    assert.match(seen[0]!.privateKeyPem, /^-----BEGIN PRIVATE KEY-----/);
    assert.deepEqual(publishedRs256(manager), [`sig:${rotation.signing.kid}`, `sig:${first.kid}`]);

    clock.t = T + 11_000 + 4_999;
    await manager.reconcile();
    assert.equal(published(manager).length, 8, 'the retired keys stay published until retireAfter');
    clock.t = T + 11_000 + 5_000;
    await manager.reconcile();
    assert.deepEqual(
      jwks(manager).keys.map((k) => k.alg),
      ['RS256', 'PS256', 'ES256', 'RSA-OAEP-256'],
    );
    assert.equal(published(manager)[0], `sig:${rotation.signing.kid}`);
    assert.equal(published(manager)[3], `enc:${rotation.encryption.kid}`);
    assert.equal(seen.length, 1);
  });

  it('answers a rotation request during a pending rotation with the pending keys', async () => {
    const { manager, repo } = setup();
    await manager.reconcile();
    const a = await manager.rotate();
    const b = await manager.rotate();
    assert.deepEqual([b.signing.kid, b.encryption.kid], [a.signing.kid, a.encryption.kid]);
    assert.equal((await repo.list()).length, 8);
  });

  it('rotates on schedule once the newest key is older than the interval', async () => {
    const { manager, repo, clock } = setup();
    await manager.reconcile();
    clock.t = T + timings.rotationIntervalMs;
    await manager.reconcile();
    assert.deepEqual(
      (await repo.list()).map((k) => [k.use, k.alg, k.generation, k.status]),
      [
        ['enc', 'RSA-OAEP-256', 1, 'active'],
        ['enc', 'RSA-OAEP-256', 2, 'pending'],
        ['sig', 'RS256', 1, 'active'],
        ['sig', 'PS256', 2, 'active'],
        ['sig', 'ES256', 3, 'active'],
        ['sig', 'RS256', 4, 'pending'],
        ['sig', 'PS256', 5, 'pending'],
        ['sig', 'ES256', 6, 'pending'],
      ],
    );
  });

  it('sees a key activated by another pod on its next reconcile and tells its watchers', async () => {
    const repo = new MemoryKeyRepository();
    const clock = { t: T };
    const a = setup(repo, clock).manager;
    const b = setup(repo, clock).manager;
    await a.reconcile();
    await b.reconcile();
    const seenByB: string[] = [];
    b.watchSigningKey((ks) => seenByB.push(ks[0]!.kid));
    const { signing } = await a.rotate();
    clock.t += timings.publishDelayMs;
    await a.reconcile();
    assert.equal(b.activeSigningKey()?.kid === signing.kid, false);
    await b.reconcile();
    assert.deepEqual(seenByB, [signing.kid]);
    assert.equal(b.activeSigningKey()?.privateKeyPem, a.activeSigningKey()?.privateKeyPem);
  });

  it('rebuilds the /jwks body only when the published key set changes', async () => {
    const { manager, clock } = setup();
    await manager.reconcile();
    const body = manager.jwksBody();
    clock.t += 10;
    await manager.reconcile();
    assert.equal(manager.jwksBody(), body, 'same Buffer instance');
    await manager.rotate();
    assert.notEqual(manager.jwksBody(), body);
  });

  it('fails with a clear message when the stored keys were sealed under another key-encryption key', async () => {
    const repo = new MemoryKeyRepository();
    await setup(repo).manager.reconcile();
    const other = new KeyManager({
      repo,
      kek: createKeyEncryptionKey(randomBytes(32)),
      clock: { now: () => T },
      timings,
      generate: keyMaterialGenerator({ now: () => T }),
      logger,
    });
    await assert.rejects(other.reconcile(), /sealed with another key-encryption key/);
  });
});
