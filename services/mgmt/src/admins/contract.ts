import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, it } from '@jest/globals';
import { DuplicateKeyError } from '../directory/directory.repository';
import type { Invitation, PersonalApiToken } from './model';
import type { AdminsRepositories } from './repository';

const uid = () => randomUUID();

function sampleInvitation(tenantId: string, overrides: Partial<Invitation> = {}): Invitation {
  return {
    invitationId: uid(),
    tenantId,
    email: 'new@example.com',
    role: 'support',
    tokenHash: `hash-${uid()}`,
    invitedBy: 'owner@example.com',
    createdAt: 100,
    expiresAt: 1_000,
    ...overrides,
  };
}

function sampleToken(tenantId: string, overrides: Partial<PersonalApiToken> = {}): PersonalApiToken {
  return {
    tokenId: uid(),
    tenantId,
    email: 'owner@example.com',
    name: 'ci',
    tokenHash: `hash-${uid()}`,
    createdAt: 100,
    expiresAt: 10_000,
    ...overrides,
  };
}

/** The behaviour every administrators adapter must have; run against the in-memory and the Mongo adapter. */
export function adminsContract(adapter: string, make: () => Promise<AdminsRepositories>): void {
  describe(`administrators contract: ${adapter}`, () => {
    let r: AdminsRepositories;
    beforeAll(async () => {
      r = await make();
    });

    it('accounts: one per tenant and email, listed oldest first, by tenant and by email; roles change', async () => {
      const t1 = uid();
      const t2 = uid();
      const owner = { tenantId: t1, email: 'o@example.com', role: 'owner' as const, createdAt: 10 };
      const support = { tenantId: t1, email: 's@example.com', role: 'support' as const, createdAt: 5 };
      await r.accounts.create(owner);
      await r.accounts.create(support);
      await r.accounts.create({ ...owner, tenantId: t2, createdAt: 20 });
      await assert.rejects(r.accounts.create({ ...owner, role: 'support' }), DuplicateKeyError);
      assert.deepEqual(await r.accounts.get(t1, 'o@example.com'), owner);
      assert.equal(await r.accounts.get(t2, 's@example.com'), undefined);
      assert.deepEqual(
        (await r.accounts.list(t1)).map((a) => a.email),
        ['s@example.com', 'o@example.com'],
      );
      assert.deepEqual(
        (await r.accounts.listByEmail('o@example.com')).map((a) => a.tenantId),
        [t1, t2],
      );
      assert.equal(await r.accounts.countOwners(t1), 1);
      assert.deepEqual(await r.accounts.setRole(t1, 's@example.com', 'administrator'), {
        ...support,
        role: 'administrator',
      });
      assert.equal(await r.accounts.setRole(t1, 'nobody@example.com', 'owner'), undefined);
      assert.equal(await r.accounts.anyOwner(), true);
    });

    it('accounts: lastSignInAt only moves forward; removal returns the account once', async () => {
      const t = uid();
      await r.accounts.create({ tenantId: t, email: 'a@example.com', role: 'administrator', createdAt: 1 });
      await r.accounts.touch(t, 'a@example.com', 300);
      await r.accounts.touch(t, 'a@example.com', 200);
      assert.equal((await r.accounts.get(t, 'a@example.com'))?.lastSignInAt, 300);
      await r.accounts.touch(t, 'missing@example.com', 300);
      assert.equal(await r.accounts.get(t, 'missing@example.com'), undefined, 'touch never creates');
      assert.equal((await r.accounts.remove(t, 'a@example.com'))?.email, 'a@example.com');
      assert.equal(await r.accounts.remove(t, 'a@example.com'), undefined);
      assert.equal(await r.accounts.countOwners(t), 0);
    });

    it('invitations: found by token hash, accepted exactly once, listed per tenant', async () => {
      const t = uid();
      const inv = sampleInvitation(t);
      await r.invitations.create(inv);
      assert.deepEqual(await r.invitations.findByTokenHash(inv.tokenHash), inv);
      assert.equal(await r.invitations.findByTokenHash('no-such-hash'), undefined);
      assert.deepEqual(await r.invitations.markAccepted(inv.invitationId, 500), { ...inv, acceptedAt: 500 });
      assert.equal(await r.invitations.markAccepted(inv.invitationId, 600), undefined, 'single use');
      assert.equal((await r.invitations.findByTokenHash(inv.tokenHash))?.acceptedAt, 500);
      await r.invitations.create(sampleInvitation(uid()));
      assert.deepEqual(
        (await r.invitations.list(t)).map((i) => i.invitationId),
        [inv.invitationId],
      );
    });

    it('invitations: get is per tenant; cancel voids an open one once and it can no longer be accepted', async () => {
      const t = uid();
      const inv = sampleInvitation(t);
      await r.invitations.create(inv);
      assert.deepEqual(await r.invitations.get(t, inv.invitationId), inv);
      assert.equal(await r.invitations.get(uid(), inv.invitationId), undefined, 'another tenant');
      const voiding = { at: 300, by: 'owner@example.com', reason: 'cancelled' as const };
      assert.equal(await r.invitations.cancel(uid(), inv.invitationId, voiding), undefined, 'tenant');
      assert.deepEqual(await r.invitations.cancel(t, inv.invitationId, voiding), {
        ...inv,
        cancelledAt: 300,
        cancelledBy: 'owner@example.com',
        cancelReason: 'cancelled',
      });
      assert.equal(
        await r.invitations.cancel(t, inv.invitationId, { ...voiding, at: 400 }),
        undefined,
        'once',
      );
      assert.equal(await r.invitations.markAccepted(inv.invitationId, 500), undefined, 'voided: not usable');
      assert.equal((await r.invitations.get(t, inv.invitationId))?.acceptedAt, undefined);
      const used = sampleInvitation(t);
      await r.invitations.create(used);
      await r.invitations.markAccepted(used.invitationId, 500);
      assert.equal(await r.invitations.cancel(t, used.invitationId, voiding), undefined, 'accepted: kept');
    });

    it('invitations: cancelOpen voids the open ones to or by one address in one tenant, nothing else', async () => {
      const t = uid();
      const voiding = { at: 700, by: 'boss@example.com', reason: 'removed' as const };
      const to = sampleInvitation(t, { email: 'x@example.com', invitedBy: 'a@example.com' });
      const to2 = sampleInvitation(t, { email: 'x@example.com', invitedBy: 'bootstrap-key' });
      const by = sampleInvitation(t, { email: 'y@example.com', invitedBy: 'x@example.com' });
      const accepted = sampleInvitation(t, { email: 'x@example.com' });
      const unrelated = sampleInvitation(t, { email: 'z@example.com', invitedBy: 'a@example.com' });
      const elsewhere = sampleInvitation(uid(), { email: 'x@example.com', invitedBy: 'x@example.com' });
      for (const i of [to, to2, by, accepted, unrelated, elsewhere]) await r.invitations.create(i);
      await r.invitations.markAccepted(accepted.invitationId, 600);
      assert.equal(await r.invitations.cancelOpen(t, { to: 'x@example.com' }, voiding), 2);
      assert.equal(await r.invitations.cancelOpen(t, { to: 'x@example.com' }, voiding), 0, 'once');
      assert.equal(await r.invitations.cancelOpen(t, { by: 'x@example.com' }, voiding), 1);
      const state = async (i: Invitation) => {
        const got = await r.invitations.get(i.tenantId, i.invitationId);
        return [got?.cancelledAt, got?.cancelledBy, got?.cancelReason];
      };
      for (const i of [to, to2, by]) assert.deepEqual(await state(i), [700, 'boss@example.com', 'removed']);
      for (const i of [accepted, unrelated, elsewhere]) {
        assert.deepEqual(await state(i), [undefined, undefined, undefined], i.email);
      }
    });

    it('tokens: found by hash, listed per person, revoked once and only by their owner; revokeAllOf', async () => {
      const t = uid();
      const a = sampleToken(t, { createdAt: 2 });
      const b = sampleToken(t, { createdAt: 1 });
      const other = sampleToken(t, { email: 'other@example.com' });
      for (const tok of [a, b, other]) await r.tokens.create(tok);
      await assert.rejects(r.tokens.create({ ...a, tokenHash: 'x' }), DuplicateKeyError);
      assert.deepEqual(await r.tokens.findByHash(a.tokenHash), a);
      assert.deepEqual(
        (await r.tokens.list(t, 'owner@example.com')).map((x) => x.tokenId),
        [b.tokenId, a.tokenId],
      );
      assert.equal(await r.tokens.revoke(t, 'other@example.com', a.tokenId, 50), undefined, 'not theirs');
      assert.equal(await r.tokens.revoke(uid(), 'owner@example.com', a.tokenId, 50), undefined, 'tenant');
      assert.equal((await r.tokens.revoke(t, 'owner@example.com', a.tokenId, 50))?.revokedAt, 50);
      assert.equal(await r.tokens.revoke(t, 'owner@example.com', a.tokenId, 60), undefined, 'once');
      assert.equal(await r.tokens.revokeAllOf(t, 'owner@example.com', 70), 1);
      assert.equal((await r.tokens.findByHash(b.tokenHash))?.revokedAt, 70);
      assert.equal((await r.tokens.findByHash(other.tokenHash))?.revokedAt, undefined);
      await r.tokens.touch(other.tokenId, 80);
      await r.tokens.touch(other.tokenId, 40);
      assert.equal((await r.tokens.findByHash(other.tokenHash))?.lastUsedAt, 80);
    });

    it('tokens: an Owner’s view lists every administrator’s tokens of the tenant and revokes any, of this tenant only', async () => {
      const t = uid();
      const mine = sampleToken(t, { createdAt: 1 });
      const theirs = sampleToken(t, { email: 'other@example.com', createdAt: 2 });
      const elsewhere = sampleToken(uid(), { email: 'other@example.com' });
      for (const tok of [mine, theirs, elsewhere]) await r.tokens.create(tok);
      assert.deepEqual(
        (await r.tokens.list(t)).map((x) => x.tokenId),
        [mine.tokenId, theirs.tokenId],
      );
      assert.equal(await r.tokens.revoke(t, undefined, elsewhere.tokenId, 50), undefined, 'other tenant');
      assert.equal((await r.tokens.revoke(t, undefined, theirs.tokenId, 50))?.revokedAt, 50);
      assert.equal(await r.tokens.revoke(t, undefined, theirs.tokenId, 60), undefined, 'once');
    });
  });
}
