import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { describe, it } from '@jest/globals';
import { EmbeddedStoreError } from '@sesame/embedded-store';
import { tempEngines } from '@sesame/embedded-store/testing';
import { killAtRandom } from '@sesame/testing';
import { sqlitePasskeyStore } from './passkeys/passkeys.sqlite';
import { USERS_COMPONENT, sqliteUserStore } from './users/users.sqlite';

const engines = tempEngines('auth-durability');

describe("auth's embedded stores: crashes and versions", () => {
  it('kill -9 in the middle of sign-in writes loses none that was answered (5 kills at random points)', async () => {
    const dir = engines.dir();
    const writer = fileURLToPath(new URL('./testing/sign-in-writer.ts', import.meta.url));
    const answered = await killAtRandom({
      script: writer,
      dir,
      rounds: 5,
      killAfter: { min: 20, spread: 200 },
      child: 'the writer',
      unit: 'sign-ins',
    });
    const engine = engines.open(dir);
    const store = sqliteUserStore(engine);
    const passkeys = sqlitePasskeyStore(engine);
    const missing: string[] = [];
    for (const userId of answered) {
      const [user, devices, member, key] = await Promise.all([
        store.users.get(userId),
        store.devices.listForUser(userId),
        store.memberships.get('tenant-1', 'app-1', userId),
        passkeys.get(`cred-${userId}`),
      ]);
      const whole =
        user?.email === `${userId}@example.com` &&
        devices.length === 1 &&
        member?.alias === `alias-${userId}` &&
        key?.counter === 1 &&
        key.lastUsedAt !== undefined;
      if (!whole) missing.push(userId);
    }
    assert.deepEqual(missing, []);
  }, 120_000);

  it('a store written by a newer Sesame (a later auth.users schema) is refused with a clear message', () => {
    const engine = engines.open();
    engine.db
      .prepare('INSERT INTO schema_versions (component, version) VALUES (?, ?)')
      .run(USERS_COMPONENT, 3);
    assert.throws(
      () => sqliteUserStore(engine),
      (err: unknown) =>
        err instanceof EmbeddedStoreError && /newer Sesame \(auth\.users schema version 3/.test(err.message),
    );
  });
});
