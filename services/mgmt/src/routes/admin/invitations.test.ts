import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { startedForSuite } from '@sesame/testing/suite';
import { expectMgmtError } from '../../testing/mgmt-harness';
import { startTenantHarness } from '../../testing/tenant-harness';

const T = '/api/v1/admin/tenants';
type Listed = {
  invitationId: string;
  email: string;
  role: string;
  invitedBy: string;
  status: string;
  cancelledBy?: string;
  cancelReason?: string;
};

describe('invitations on the admin API: list, cancel, replaced, voided with their people, limited (hostile)', () => {
  const h = startedForSuite(() =>
    startTenantHarness('Acme', { owner: 'owner', manager: 'administrator', support: 'support' }),
  );
  const path = () => `${T}/${h.tenantId}/invitations`;
  const invite = async (token: string, email: string, role = 'support') => {
    const res = await h.asToken(token, 'POST', path(), { email, role });
    assert.equal(res.status, 201, await res.clone().text());
    return (await res.json()) as Listed;
  };
  const list = async (token: string, query = '') =>
    ((await (await h.asToken(token, 'GET', `${path()}${query}`)).json()) as { invitations: Listed[] })
      .invitations;
  const stored = async (invitationId: string) => h.admins.invitations.get(h.tenantId, invitationId);

  it('lists the open invitations for Owners and Administrators, every one with ?status=all; Support gets 403', async () => {
    const a = await invite(h.owner, 'list-a@acme.test');
    const b = await invite(h.owner, 'list-b@acme.test', 'administrator');
    await h.asToken(h.owner, 'DELETE', `${path()}/${b.invitationId}`);
    const open = await list(h.manager);
    assert.ok(open.some((i) => i.invitationId === a.invitationId && i.status === 'pending'));
    assert.ok(!open.some((i) => i.invitationId === b.invitationId), 'cancelled: not open');
    const all = await list(h.owner, '?status=all');
    const cancelled = all.find((i) => i.invitationId === b.invitationId)!;
    assert.deepEqual(
      [cancelled.status, cancelled.cancelledBy, cancelled.cancelReason, cancelled.invitedBy],
      ['cancelled', 'owner@acme.test', 'cancelled', 'owner@acme.test'],
    );
    assert.ok(!JSON.stringify(all).includes('tokenHash'));
    await expectMgmtError(await h.asToken(h.support, 'GET', path()), 403, 'forbidden');
    await expectMgmtError(
      await h.asToken(h.owner, 'GET', `${path()}?status=used`),
      400,
      'invalid_request',
      'status',
    );
  });

  it('an Owner cancels: the invitation is voided at once and the event names the Owner and the invitation', async () => {
    const inv = await invite(h.owner, 'cancel-me@acme.test', 'owner');
    const res = await h.asToken(h.owner, 'DELETE', `${path()}/${inv.invitationId}`);
    assert.equal(res.status, 200);
    const body = (await res.json()) as Listed;
    assert.deepEqual([body.status, body.cancelledBy], ['cancelled', 'owner@acme.test']);
    assert.ok((await stored(inv.invitationId))?.cancelledAt !== undefined);
    assert.equal(await h.admins.invitations.markAccepted(inv.invitationId, h.clock.now()), undefined);
    const event = h.adminEvents.at(-1)!;
    assert.equal(event.activityType, 'administrator_cancel_invitation');
    assert.equal(event.adminEmail, 'owner@acme.test');
    assert.deepEqual(event.data, {
      invitationId: inv.invitationId,
      email: 'cancel-me@acme.test',
      role: 'owner',
      reason: 'cancelled',
    });
    await expectMgmtError(
      await h.asToken(h.owner, 'DELETE', `${path()}/${inv.invitationId}`),
      409,
      'invitation_cancelled',
    );
  });

  it('cancel by an Administrator or Support: 403; another tenant’s or an unknown invitation: 404; nothing written', async () => {
    const inv = await invite(h.owner, 'keep@acme.test');
    const other = await h.createTenant('Other');
    const theirs = await h.adminToken(other, 'boss@other.test', 'owner');
    const events = h.adminEvents.length;
    for (const token of [h.manager, h.support]) {
      await expectMgmtError(
        await h.asToken(token, 'DELETE', `${path()}/${inv.invitationId}`),
        403,
        'forbidden',
      );
    }
    await expectMgmtError(
      await h.asToken(theirs, 'DELETE', `${T}/${other}/invitations/${inv.invitationId}`),
      404,
      'invitation_not_found',
    );
    await expectMgmtError(
      await h.asToken(h.owner, 'DELETE', `${path()}/no-such-id`),
      404,
      'invitation_not_found',
    );
    assert.equal((await stored(inv.invitationId))?.cancelledAt, undefined);
    assert.equal(h.adminEvents.length, events);
  });

  it('a new invitation to the same address replaces the older open one (one pending, the old one voided)', async () => {
    const first = await invite(h.owner, 'twice@acme.test', 'owner');
    const second = await invite(h.owner, 'Twice@Acme.test', 'support');
    const pending = (await list(h.owner)).filter((i) => i.email === 'twice@acme.test');
    assert.deepEqual(
      pending.map((i) => [i.invitationId, i.role]),
      [[second.invitationId, 'support']],
    );
    assert.equal((await stored(first.invitationId))?.cancelReason, 'replaced');
    assert.deepEqual(h.adminEvents.at(-2)?.data, { email: 'twice@acme.test', reason: 'replaced', count: 1 });
  });

  it('removing a person voids the open invitations to them (no way back as Owner) and those they made', async () => {
    const toThem = await invite(h.owner, 'leaver@acme.test', 'owner');
    // Meanwhile they joined as Support another way (break-glass), and as an Owner made invitations of their own.
    await h.admin('POST', `${T}/${h.tenantId}/administrators`, { email: 'leaver2@acme.test', role: 'owner' });
    const leaver2 = await h.adminToken(h.tenantId, 'leaver2@acme.test', 'owner');
    const byThem = await invite(leaver2, 'friend@acme.test', 'owner');
    await h.admins.accounts.create({
      tenantId: h.tenantId,
      email: 'leaver@acme.test',
      role: 'support',
      createdAt: 1,
    });
    for (const who of ['leaver@acme.test', 'leaver2@acme.test']) {
      assert.equal(
        (await h.asToken(h.owner, 'DELETE', `${T}/${h.tenantId}/administrators/${who}`)).status,
        200,
      );
      assert.equal(h.adminEvents.at(-1)?.activityType, 'administrator_remove_admin_account');
    }
    for (const inv of [toThem, byThem]) {
      const got = await stored(inv.invitationId);
      assert.deepEqual([got?.cancelReason, got?.cancelledBy], ['removed', 'owner@acme.test'], inv.email);
      assert.equal(await h.admins.invitations.markAccepted(inv.invitationId, h.clock.now()), undefined);
    }
    assert.deepEqual(h.adminEvents.at(-2)?.data, { email: 'leaver2@acme.test', reason: 'removed', count: 1 });
  });

  it('demoting an Owner voids the invitations they made', async () => {
    const former = await h.adminToken(h.tenantId, 'former@acme.test', 'owner');
    const byThem = await invite(former, 'their-pick@acme.test', 'owner');
    const res = await h.asToken(h.owner, 'PATCH', `${T}/${h.tenantId}/administrators/former@acme.test`, {
      role: 'support',
    });
    assert.equal(res.status, 200);
    assert.equal((await stored(byThem.invitationId))?.cancelReason, 'role_changed');
    assert.equal(h.adminEvents.at(-1)?.activityType, 'administrator_update_admin_role');
  });

  it('the 11th invitation mail to one address in a day: 429 naming the limit, Retry-After, nothing stored or mailed', async () => {
    for (let i = 0; i < 10; i++) await invite(h.owner, 'flood@acme.test');
    const before = { mail: h.mail.length, invitations: (await h.admins.invitations.list(h.tenantId)).length };
    const res = await h.asToken(h.owner, 'POST', path(), { email: 'Flood@Acme.test', role: 'support' });
    assert.equal(res.headers.get('retry-after'), String(24 * 3600));
    const body = await expectMgmtError(res, 429, 'too_many_requests');
    assert.match(body.error.message, /at most 10 invitation mails per address per day/);
    assert.equal(h.mail.length, before.mail);
    assert.equal((await h.admins.invitations.list(h.tenantId)).length, before.invitations);
    h.clock.t += 24 * 3_600_000;
    try {
      await invite(h.owner, 'flood@acme.test');
    } finally {
      h.clock.t -= 24 * 3_600_000;
    }
  });
});
