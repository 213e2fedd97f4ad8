import { Router } from 'express';
import type { AdminRouteDeps } from '../../admin/deps';
import { requireTenant, tenantView } from '../../admin/views';
import { asyncRoute } from '../../http/async-route';

/** GET /api/v1/admin/tenants/:tenantId → the tenant, or 404 tenant_not_found. */
export function getTenantRoute(deps: AdminRouteDeps): Router {
  return Router().get(
    '/api/v1/admin/tenants/:tenantId',
    asyncRoute(async (req, res) => {
      res.json(tenantView(await requireTenant(deps.dir, req.params.tenantId!)));
    }),
  );
}
