import type { Router } from 'express';
import type { AdminRouteDeps } from '../../use-cases/deps';
import { tenantView } from '../../use-cases/views';
import { tenantAdminRoute } from './admin-route';

/** GET /api/v1/admin/tenants/:tenantId → the tenant, or 404 tenant_not_found. */
export function getTenantRoute(deps: AdminRouteDeps): Router {
  return tenantAdminRoute(
    deps,
    { method: 'get', path: '/api/v1/admin/tenants/:tenantId', action: 'tenant.read' },
    async ({ tenant }) => tenantView(tenant),
  );
}
