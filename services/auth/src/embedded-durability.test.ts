import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, it } from '@jest/globals';
import { EmbeddedStoreError } from '@sesame/embedded-store';
import { sqlitePasskeyStore } from './passkeys/passkeys.sqlite';
import { tempEngines } from './testing/temp-engine';
import { USERS_COMPONENT, sqliteUserStore } from './users/users.sqlite';

const engines = tempEngines('auth-durability');
afterAll(() => engines.cleanup());

describe("auth's embedded stores: crashes and versions", () => {
  it('kill -9 in the middle of sign-in writes loses none that was answered (5 kills at random points)', async () => {
    const dir = engines.dir();
    const writer = fileURLToPath(new URL('./testing/sign-in-writer.ts', import.meta.url));
    const answered: string[] = [];
    for (let round = 0; round < 5; round++) {
      const child = spawn(process.execPath, ['--import', 'tsx', writer, dir, `r${round}`], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      const lines = createInterface({ input: child.stdout! });
      const killAfter = 20 + Math.floor(Math.random() * 200);
      let seen = 0;
      await new Promise<void>((resolve) => {
        lines.on('line', (line) => {
          answered.push(line);
          if (++seen === killAfter) child.kill('SIGKILL');
        });
        child.on('exit', () => resolve());
      });
      assert.ok(seen >= killAfter, `round ${round}: the writer stopped after ${seen} sign-ins`);
    }
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
      .run(USERS_COMPONENT, 2);
    assert.throws(
      () => sqliteUserStore(engine),
      (err: unknown) =>
        err instanceof EmbeddedStoreError && /newer Sesame \(auth\.users schema version 2/.test(err.message),
    );
  });
});
