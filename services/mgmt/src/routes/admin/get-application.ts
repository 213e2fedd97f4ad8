import { Router } from 'express';
import type { AdminRouteDeps } from '../../admin/deps';
import { applicationView, requireApplication, requireTenant } from '../../admin/views';
import { asyncRoute } from '../../http/async-route';

/** GET /api/v1/admin/tenants/:tenantId/applications/:appId → the application (never its secret). */
export function getApplicationRoute(deps: AdminRouteDeps): Router {
  return Router().get(
    '/api/v1/admin/tenants/:tenantId/applications/:appId',
    asyncRoute(async (req, res) => {
      const tenant = await requireTenant(deps.dir, req.params.tenantId!);
      res.json(applicationView(await requireApplication(deps.dir, tenant.tenantId, req.params.appId!)));
    }),
  );
}
