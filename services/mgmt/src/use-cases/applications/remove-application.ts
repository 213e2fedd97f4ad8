import { MgmtError } from '@sesame/platform';
import type { Router } from 'express';
import { adminActivity } from '../../events/admin-events';
import { tenantAdminRoute } from '../../routes/admin/admin-route';
import type { Emit } from '../administrators/invitations';
import type { AdminRouteDeps } from '../deps';

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

/** Removes an application (its client stops working) and publishes administrator_remove_application. */
export async function removeApplication(
  deps: Pick<AdminRouteDeps, 'dir'>,
  tenantId: string,
  appId: string,
  emit: Emit,
): Promise<void> {
  const removed = await deps.dir.applications.remove(tenantId, appId);
  if (!removed) throw new MgmtError(404, 'application_not_found', 'no such application in this tenant');
  await emit(tenantId, adminActivity.removeApplication, { appId: removed.appId, appName: removed.name });
}
