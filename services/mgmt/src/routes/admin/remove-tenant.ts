import { MgmtError } from '@sesame/platform';
import { Router } from 'express';
import { adminOf } from '../../admin/admin-auth';
import { adminActivity } from '../../admin/admin-events';
import type { AdminRouteDeps } from '../../admin/deps';
import { requireTenant } from '../../admin/views';
import { asyncRoute } from '../../http/async-route';

/**
 * DELETE /api/v1/admin/tenants/:tenantId → `{status: 'success'}`. Refused (409 tenant_not_empty) while the
 * tenant has applications or unrevoked API credentials: removing them is a decision of its own.
 */
export function removeTenantRoute(deps: AdminRouteDeps): Router {
  return Router().delete(
    '/api/v1/admin/tenants/:tenantId',
    asyncRoute(async (req, res) => {
      const tenant = await requireTenant(deps.dir, req.params.tenantId!);
      const apps = await deps.dir.applications.list(tenant.tenantId);
      const live = (await deps.dir.credentials.list(tenant.tenantId)).filter(
        (c) => c.revokedAt === undefined,
      );
      if (apps.length || live.length) {
        throw new MgmtError(
          409,
          'tenant_not_empty',
          `the tenant still has ${apps.length} application(s) and ${live.length} active API credential(s)`,
        );
      }
      if (!(await deps.dir.tenants.remove(tenant.tenantId))) {
        throw new MgmtError(404, 'tenant_not_found', 'no such tenant');
      }
      await deps.events.publish(adminOf(res), tenant.tenantId, adminActivity.removeTenant, {
        tenantName: tenant.name,
      });
      res.json({ status: 'success' });
    }),
  );
}
