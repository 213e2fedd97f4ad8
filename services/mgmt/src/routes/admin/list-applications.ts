import { Router } from 'express';
import type { AdminRouteDeps } from '../../admin/deps';
import { applicationView, requireTenant } from '../../admin/views';
import { asyncRoute } from '../../http/async-route';

/** GET /api/v1/admin/tenants/:tenantId/applications → `{applications: [...]}`, oldest first. */
export function listApplicationsRoute(deps: AdminRouteDeps): Router {
  return Router().get(
    '/api/v1/admin/tenants/:tenantId/applications',
    asyncRoute(async (req, res) => {
      const tenant = await requireTenant(deps.dir, req.params.tenantId!);
      res.json({ applications: (await deps.dir.applications.list(tenant.tenantId)).map(applicationView) });
    }),
  );
}
