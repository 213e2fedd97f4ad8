import { MgmtError } from '@sesame/platform';
import type { AdminAccount, AdminRole } from '../../admins/model';
import type { AdminPrincipal } from '../../admins/principal';
import { BOOTSTRAP_ADMIN, type Emit, adminActivity } from '../../events/admin-events';
import type { AdminRouteDeps } from '../deps';

export const accountView = (a: AdminAccount) => ({
  email: a.email,
  role: a.role,
  createdAt: a.createdAt,
  ...(a.lastSignInAt !== undefined ? { lastSignInAt: a.lastSignInAt } : {}),
});

/** 409 last_owner when the change would leave the tenant without an Owner. */
async function assertNotLastOwner(
  deps: Pick<AdminRouteDeps, 'admins'>,
  target: AdminAccount,
  nextRole?: AdminRole,
) {
  if (target.role !== 'owner' || nextRole === 'owner') return;
  if ((await deps.admins.accounts.countOwners(target.tenantId)) <= 1) {
    throw new MgmtError(409, 'last_owner', 'the last Owner of a tenant cannot be removed or demoted');
  }
}

/**
 * Voids the open invitations to `email` and those made by `email` in the tenant (they were removed or their
 * role changed: a pending invitation must not bring them back, nor let someone in on their word); emits
 * administrator_cancel_invitation `{email, reason, count}` when there were any.
 */
async function voidInvitationsOf(
  deps: Pick<AdminRouteDeps, 'admins' | 'clock'>,
  tenantId: string,
  email: string,
  reason: 'removed' | 'role_changed',
  actor: string,
  emit: Emit,
) {
  const voiding = { at: deps.clock.now(), by: actor, reason };
  const count =
    (await deps.admins.invitations.cancelOpen(tenantId, { to: email }, voiding)) +
    (await deps.admins.invitations.cancelOpen(tenantId, { by: email }, voiding));
  if (count > 0) await emit(tenantId, adminActivity.cancelInvitation, { email, reason, count });
}

/**
 * Removes an administrator (404 when none; 409 last_owner for the last Owner), revokes their personal API
 * tokens at once (their console sessions end at their next request: every request checks the account),
 * voids the open invitations to and by them, and emits administrator_remove_admin_account as the caller
 * (`actor`: the caller's email or bootstrap-key). Returns how many tokens were revoked.
 */
export async function removeAdministrator(
  deps: Pick<AdminRouteDeps, 'admins' | 'clock'>,
  tenantId: string,
  email: string,
  emit: Emit,
  actor: string,
): Promise<number> {
  const target = await requireAccount(deps, tenantId, email);
  await assertNotLastOwner(deps, target);
  if (!(await deps.admins.accounts.remove(tenantId, target.email))) {
    throw new MgmtError(404, 'administrator_not_found', 'no such administrator in this tenant');
  }
  const revoked = await deps.admins.tokens.revokeAllOf(tenantId, target.email, deps.clock.now());
  await voidInvitationsOf(deps, tenantId, target.email, 'removed', actor, emit);
  await emit(tenantId, adminActivity.removeAdminAccount, { email: target.email });
  return revoked;
}

/**
 * Changes an administrator's role (404 when none; 409 last_owner when it would leave no Owner); a real change
 * voids the open invitations to and by them and emits administrator_update_admin_role with the diff. The
 * admin API and the console's Administrators page.
 */
export async function changeRole(
  deps: Pick<AdminRouteDeps, 'admins' | 'clock'>,
  tenantId: string,
  email: string,
  role: AdminRole,
  emit: Emit,
  actor: string,
): Promise<AdminAccount> {
  const target = await requireAccount(deps, tenantId, email);
  await assertNotLastOwner(deps, target, role);
  const updated = await deps.admins.accounts.setRole(tenantId, target.email, role);
  if (!updated) throw new MgmtError(404, 'administrator_not_found', 'no such administrator in this tenant');
  if (target.role !== role) {
    await voidInvitationsOf(deps, tenantId, target.email, 'role_changed', actor, emit);
    await emit(tenantId, adminActivity.updateAdminRole, {
      email: target.email,
      diff: JSON.stringify({ role: { from: target.role, to: role } }),
    });
  }
  return updated;
}

/** Who acts, as invitations record it: the token's administrator, or bootstrap-key. */
export const actorOf = (principal: AdminPrincipal) =>
  principal.kind === 'token' ? principal.email : BOOTSTRAP_ADMIN;

async function requireAccount(deps: Pick<AdminRouteDeps, 'admins'>, tenantId: string, email: string) {
  const account = await deps.admins.accounts.get(tenantId, email);
  if (!account) throw new MgmtError(404, 'administrator_not_found', 'no such administrator in this tenant');
  return account;
}
