import type { Router } from 'express';
import { removeApplication } from '../../use-cases/applications/remove-application';
import type { AdminRouteDeps } from '../../use-cases/deps';
import { tenantAdminRoute } from './admin-route';

/** DELETE /api/v1/admin/tenants/:tenantId/applications/:appId → `{status: 'success'}`; its client stops working. */
export function removeApplicationRoute(deps: AdminRouteDeps): Router {
  return tenantAdminRoute(
    deps,
    {
      method: 'delete',
      path: '/api/v1/admin/tenants/:tenantId/applications/:appId',
      action: 'application.write',
      stepUp: 'application.remove',
    },
    async ({ req, tenant, emit }) => {
      await removeApplication(deps, tenant.tenantId, req.params.appId!, emit);
      return { status: 'success' };
    },
  );
}
