import type { Router } from 'express';
import type { AdminRouteDeps } from '../../use-cases/deps';
import { applicationView, requireApplication } from '../../use-cases/views';
import { tenantAdminRoute } from './admin-route';

/** GET /api/v1/admin/tenants/:tenantId/applications/:appId → the application (never its secret). */
export function getApplicationRoute(deps: AdminRouteDeps): Router {
  return tenantAdminRoute(
    deps,
    {
      method: 'get',
      path: '/api/v1/admin/tenants/:tenantId/applications/:appId',
      action: 'application.read',
    },
    async ({ req, tenant }) =>
      applicationView(await requireApplication(deps.dir, tenant.tenantId, req.params.appId!)),
  );
}
