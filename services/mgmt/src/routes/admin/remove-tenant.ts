import { MgmtError } from '@sesame/platform';
import type { Router } from 'express';
import { adminActivity } from '../../events/admin-events';
import type { AdminRouteDeps } from '../../use-cases/deps';
import { tenantAdminRoute } from './admin-route';

/**
 * DELETE /api/v1/admin/tenants/:tenantId → `{status: 'success'}`. Refused (409 tenant_not_empty) while the
 * tenant has applications or unrevoked API credentials: removing them is a decision of its own.
 */
export function removeTenantRoute(deps: AdminRouteDeps): Router {
  return tenantAdminRoute(
    deps,
    { method: 'delete', path: '/api/v1/admin/tenants/:tenantId', action: 'tenant.remove' },
    async ({ tenant, emit }) => {
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
      await emit(tenant.tenantId, adminActivity.removeTenant, { tenantName: tenant.name });
      return { status: 'success' };
    },
  );
}
