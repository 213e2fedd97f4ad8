import { MgmtError } from '@sesame/platform';
import type { AdminPrincipal } from '../admin/admin-auth';
import type { AdminRole } from './model';
import { type AdminAction, assertAllowed } from './permissions';
import type { AdminsRepositories } from './repository';

/**
 * The caller's role for `action` on `tenantId` (the path's tenant; else the token's own tenant), checked
 * against the permission table before anything is read or written. The bootstrap key acts as an Owner
 * (adminAuth already refused it where it may not act). A token on a tenant its administrator has no
 * account in is answered like a missing tenant (404 tenant_not_found), never revealing that it exists.
 */
export async function authorize(
  admins: AdminsRepositories,
  principal: AdminPrincipal,
  action: AdminAction,
  tenantId?: string,
): Promise<AdminRole> {
  if (principal.kind === 'bootstrap') return 'owner';
  const account = await admins.accounts.get(tenantId ?? principal.tenantId, principal.email);
  if (!account) {
    if (tenantId) throw new MgmtError(404, 'tenant_not_found', 'no such tenant');
    throw new MgmtError(401, 'invalid_admin_key', 'the personal API token is not valid');
  }
  assertAllowed(account.role, action);
  return account.role;
}
