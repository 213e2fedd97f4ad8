import type { Router } from 'express';
import { tenantAdminRoute } from '../../admin/admin-route';
import type { AdminRouteDeps } from '../../admin/deps';
import { applicationView } from '../../admin/views';

/** GET /api/v1/admin/tenants/:tenantId/applications → `{applications: [...]}`, oldest first. */
export function listApplicationsRoute(deps: AdminRouteDeps): Router {
  return tenantAdminRoute(
    deps,
    { method: 'get', path: '/api/v1/admin/tenants/:tenantId/applications', action: 'application.read' },
    async ({ tenant }) => ({
      applications: (await deps.dir.applications.list(tenant.tenantId)).map(applicationView),
    }),
  );
}
