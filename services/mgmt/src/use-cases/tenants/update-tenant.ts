import { MgmtError } from '@sesame/platform';
import type { Router } from 'express';
import type { Tenant } from '../../directory/model';
import { adminActivity } from '../../events/admin-events';
import { settingsDiff } from '../../events/diff';
import { tenantAdminRoute } from '../../routes/admin/admin-route';
import { createTenantBody } from '../../routes/admin/create-tenant';
import type { Emit } from '../administrators/invitations';
import type { AdminRouteDeps } from '../deps';
import { tenantView } from '../views';

/** A rename takes the body a tenant is created with: its name. */
export const updateTenantBody = createTenantBody;

/**
 * PATCH /api/v1/admin/tenants/:tenantId → the tenant. A real change publishes
 * administrator_update_general_settings with its diff; an update that changes nothing publishes nothing.
 */
export function updateTenantRoute(deps: AdminRouteDeps): Router {
  return tenantAdminRoute(
    deps,
    {
      method: 'patch',
      path: '/api/v1/admin/tenants/:tenantId',
      action: 'tenant.update',
      body: updateTenantBody,
    },
    async ({ body, tenant: before, emit }) => tenantView(await renameTenant(deps, before, body.name, emit)),
  );
}

/**
 * Renames a tenant; a real change publishes administrator_update_general_settings with its diff, no change
 * publishes nothing. The admin API and the console's Settings page.
 */
export async function renameTenant(
  deps: Pick<AdminRouteDeps, 'dir' | 'clock'>,
  before: Tenant,
  name: string,
  emit: Emit,
): Promise<Tenant> {
  const diff = settingsDiff(before, { ...before, name }, ['name']);
  if (!diff) return before;
  const after = await deps.dir.tenants.update(before.tenantId, { name, updatedAt: deps.clock.now() });
  if (!after) throw new MgmtError(404, 'tenant_not_found', 'no such tenant');
  await emit(after.tenantId, adminActivity.updateGeneralSettings, { diff });
  return after;
}
