import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, it } from '@jest/globals';
import type { Passkey } from './model';
import { DuplicatePasskeyError, type PasskeyRepository } from './passkeys.repository';

const uid = () => randomUUID();

export function passkey(userId: string, extra: Partial<Passkey> = {}): Passkey {
  return {
    credentialId: `cred-${uid()}`,
    userId,
    deviceId: uid(),
    publicKey: 'pQECAyYgASFYIA',
    counter: 0,
    transports: ['internal', 'hybrid'],
    aaguid: '00000000-0000-0000-0000-000000000000',
    backupEligible: true,
    backedUp: false,
    createdAt: 100,
    status: 'active',
    ...extra,
  };
}

/** The behaviour every passkey-store adapter must have; run against the in-memory and the Mongo adapter. */
export function passkeyStoreContract(adapter: string, make: () => Promise<PasskeyRepository>): void {
  describe(`passkey store contract: ${adapter}`, () => {
    let store: PasskeyRepository;
    beforeAll(async () => {
      store = await make();
    });

    it('created once, read back exactly by credential id; a duplicate credential id is refused', async () => {
      const p = passkey(uid());
      await store.create(p);
      assert.deepEqual(await store.get(p.credentialId), p);
      await assert.rejects(store.create({ ...p, userId: uid() }), DuplicatePasskeyError);
      assert.equal(await store.get(`cred-${uid()}`), undefined);
    });

    it('listed per user, oldest first, nobody else’s', async () => {
      const [user, other] = [uid(), uid()];
      const newer = passkey(user, { createdAt: 300 });
      const older = passkey(user, { createdAt: 200, transports: [] });
      await store.create(newer);
      await store.create(older);
      await store.create(passkey(other));
      assert.deepEqual(await store.listForUser(user), [older, newer]);
      assert.deepEqual(await store.listForUser(uid()), []);
    });

    it('a use sets the counter, backup state and time; unknown credentials report false', async () => {
      const p = passkey(uid(), { counter: 3 });
      await store.create(p);
      assert.equal(await store.recordUse(p.credentialId, { counter: 9, backedUp: true, at: 500 }), true);
      assert.deepEqual(await store.get(p.credentialId), {
        ...p,
        counter: 9,
        backedUp: true,
        lastUsedAt: 500,
      });
      assert.equal(await store.recordUse(`cred-${uid()}`, { counter: 1, backedUp: false, at: 1 }), false);
    });

    it('a suspected clone is marked and stays otherwise unchanged', async () => {
      const p = passkey(uid(), { counter: 7 });
      await store.create(p);
      assert.equal(await store.markSuspected(p.credentialId), true);
      assert.deepEqual(await store.get(p.credentialId), { ...p, status: 'suspected' });
      assert.equal(await store.markSuspected(`cred-${uid()}`), false);
    });

    it('remove deletes exactly that passkey (gone from get and the list); unknown or removed again reports false', async () => {
      const user = uid();
      const kept = passkey(user, { createdAt: 1 });
      const lost = passkey(user, { createdAt: 2 });
      await store.create(kept);
      await store.create(lost);
      assert.equal(await store.remove(lost.credentialId), true);
      assert.equal(await store.get(lost.credentialId), undefined);
      assert.deepEqual(await store.listForUser(user), [kept]);
      assert.equal(await store.remove(lost.credentialId), false);
      assert.equal(await store.remove(`cred-${uid()}`), false);
    });
  });
}
