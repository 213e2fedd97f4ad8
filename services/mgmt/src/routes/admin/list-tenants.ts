import { Router } from 'express';
import type { AdminRouteDeps } from '../../admin/deps';
import { tenantView } from '../../admin/views';
import { asyncRoute } from '../../http/async-route';

/** GET /api/v1/admin/tenants → `{tenants: [...]}`, oldest first. */
export function listTenantsRoute(deps: AdminRouteDeps): Router {
  return Router().get(
    '/api/v1/admin/tenants',
    asyncRoute(async (_req, res) => {
      res.json({ tenants: (await deps.dir.tenants.list()).map(tenantView) });
    }),
  );
}
