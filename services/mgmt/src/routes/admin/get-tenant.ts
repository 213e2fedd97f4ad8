import type { Router } from 'express';
import { tenantAdminRoute } from '../../admin/admin-route';
import type { AdminRouteDeps } from '../../admin/deps';
import { tenantView } from '../../admin/views';

/** GET /api/v1/admin/tenants/:tenantId → the tenant, or 404 tenant_not_found. */
export function getTenantRoute(deps: AdminRouteDeps): Router {
  return tenantAdminRoute(
    deps,
    { method: 'get', path: '/api/v1/admin/tenants/:tenantId', action: 'tenant.read' },
    async ({ tenant }) => tenantView(tenant),
  );
}
