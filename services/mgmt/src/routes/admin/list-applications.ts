import type { Router } from 'express';
import type { AdminRouteDeps } from '../../use-cases/deps';
import { applicationView } from '../../use-cases/views';
import { tenantAdminRoute } from './admin-route';

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
