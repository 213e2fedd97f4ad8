import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { queryPlan, tempEngines } from '@sesame/embedded-store/testing';
import { passkey, passkeyStoreContract } from './passkeys.contract';
import { PASSKEYS_COMPONENT, PASSKEY_SQL, sqlitePasskeyStore } from './passkeys.sqlite';

const engines = tempEngines('auth-passkeys');

passkeyStoreContract('sqlite', async () => sqlitePasskeyStore(engines.open()));

describe('sqlite passkey store (embedded)', () => {
  it('keeps public keys, counters, transports and a suspected status across a close and a new open', async () => {
    const dir = engines.dir();
    let engine = engines.open(dir);
    let store = sqlitePasskeyStore(engine);
    const older = passkey('u-1', { createdAt: 1, transports: ['usb'] });
    const newer = passkey('u-1', { createdAt: 2, counter: 4 });
    await store.create(newer);
    await store.create(older);
    await store.recordUse(newer.credentialId, { counter: 5, backedUp: true, at: 50 });
    await store.markSuspected(older.credentialId);
    engine.close();

    engine = engines.open(dir);
    store = sqlitePasskeyStore(engine);
    assert.deepEqual(await store.listForUser('u-1'), [
      { ...older, status: 'suspected' },
      { ...newer, counter: 5, backedUp: true, lastUsedAt: 50 },
    ]);
    assert.equal(engine.versionOf(PASSKEYS_COMPONENT), 1);
  });

  it.each(Object.entries(PASSKEY_SQL))(
    'the planner serves %s from an index, with no scan and no sort',
    (_n, sql) => {
      const engine = engines.open();
      sqlitePasskeyStore(engine);
      const plan = queryPlan(engine, sql);
      for (const step of plan) {
        assert.doesNotMatch(step, /^SCAN /, `${sql}: ${plan.join(' | ')}`);
        assert.doesNotMatch(step, /TEMP B-TREE/, `${sql}: ${plan.join(' | ')}`);
      }
    },
  );
});
