import { MgmtError } from '@sesame/platform';
import { Router } from 'express';
import { adminOf } from '../../admin/admin-auth';
import { adminActivity } from '../../admin/admin-events';
import type { AdminRouteDeps } from '../../admin/deps';
import { requireTenant } from '../../admin/views';
import { asyncRoute } from '../../http/async-route';

/** DELETE /api/v1/admin/tenants/:tenantId/applications/:appId → `{status: 'success'}`; its client stops working. */
export function removeApplicationRoute(deps: AdminRouteDeps): Router {
  return Router().delete(
    '/api/v1/admin/tenants/:tenantId/applications/:appId',
    asyncRoute(async (req, res) => {
      const tenant = await requireTenant(deps.dir, req.params.tenantId!);
      const removed = await deps.dir.applications.remove(tenant.tenantId, req.params.appId!);
      if (!removed) throw new MgmtError(404, 'application_not_found', 'no such application in this tenant');
      await deps.events.publish(adminOf(res), tenant.tenantId, adminActivity.removeApplication, {
        appId: removed.appId,
        appName: removed.name,
      });
      res.json({ status: 'success' });
    }),
  );
}
