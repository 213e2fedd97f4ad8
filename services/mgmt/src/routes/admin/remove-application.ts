import { MgmtError } from '@sesame/platform';
import type { Router } from 'express';
import { adminActivity } from '../../admin/admin-events';
import { tenantAdminRoute } from '../../admin/admin-route';
import type { AdminRouteDeps } from '../../admin/deps';

/** DELETE /api/v1/admin/tenants/:tenantId/applications/:appId → `{status: 'success'}`; its client stops working. */
export function removeApplicationRoute(deps: AdminRouteDeps): Router {
  return tenantAdminRoute(
    deps,
    {
      method: 'delete',
      path: '/api/v1/admin/tenants/:tenantId/applications/:appId',
      action: 'application.write',
    },
    async ({ req, tenant, emit }) => {
      const removed = await deps.dir.applications.remove(tenant.tenantId, req.params.appId!);
      if (!removed) throw new MgmtError(404, 'application_not_found', 'no such application in this tenant');
      await emit(tenant.tenantId, adminActivity.removeApplication, {
        appId: removed.appId,
        appName: removed.name,
      });
      return { status: 'success' };
    },
  );
}
