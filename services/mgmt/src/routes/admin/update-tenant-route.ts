import type { Router } from 'express';
import type { AdminRouteDeps } from '../../use-cases/deps';
import { renameTenant, updateTenantBody } from '../../use-cases/tenants/update-tenant';
import { tenantView } from '../../use-cases/views';
import { tenantAdminRoute } from './admin-route';

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
