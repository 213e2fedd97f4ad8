import { MgmtError } from '@sesame/platform';
import type { AdminRole } from './model';
import { type AdminAction, assertAllowed } from './permissions';
import type { AdminPrincipal } from './principal';
import type { AdminsRepositories } from './repository';

/**
 * What the bootstrap key may do without break-glass: set up an empty install, i.e. create a tenant with its
 * first Owner invitation (adminAuth refuses the key altogether once a tenant has an Owner).
 */
export const bootstrapActions: readonly AdminAction[] = ['tenant.create'];

/**
 * The caller's role for `action` on `tenantId` (the path's tenant; else the token's own tenant), checked
 * against the permission table before anything is read or written. The bootstrap key acts as an Owner only
 * under break-glass (the recovery the docs describe); without it, it may only do bootstrapActions (403
 * otherwise). A token on a tenant its administrator has no
 * account in is answered like a missing tenant (404 tenant_not_found), never revealing that it exists; a token
 * acts only in the tenant it was made in: on another tenant of its administrator it is 403
 * token_tenant_mismatch (the administrator makes a token there).
 */
export async function authorize(
  admins: AdminsRepositories,
  principal: AdminPrincipal,
  action: AdminAction,
  tenantId?: string,
): Promise<AdminRole> {
  if (principal.kind === 'bootstrap') {
    if (!principal.breakGlass && !bootstrapActions.includes(action)) {
      throw new MgmtError(
        403,
        'forbidden',
        `without break-glass the bootstrap key only creates a tenant with its first Owner invitation; it may not do ${action}`,
      );
    }
    return 'owner';
  }
  const account = await admins.accounts.get(tenantId ?? principal.tenantId, principal.email);
  if (!account) {
    if (tenantId) throw new MgmtError(404, 'tenant_not_found', 'no such tenant');
    throw new MgmtError(401, 'invalid_admin_key', 'the personal API token is not valid');
  }
  if (tenantId && tenantId !== principal.tenantId) {
    throw new MgmtError(
      403,
      'token_tenant_mismatch',
      'a personal API token acts only in the tenant it was made in; make a token in that tenant',
    );
  }
  assertAllowed(account.role, action);
  return account.role;
}
