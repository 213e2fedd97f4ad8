import type { Router } from 'express';
import { adminRoute } from '../../admin/admin-route';
import type { AdminRouteDeps } from '../../admin/deps';
import { tenantView } from '../../admin/views';

/** GET /api/v1/admin/tenants → `{tenants: [...]}`, oldest first. */
export function listTenantsRoute(deps: AdminRouteDeps): Router {
  return adminRoute(deps, { method: 'get', path: '/api/v1/admin/tenants' }, async () => ({
    tenants: (await deps.dir.tenants.list()).map(tenantView),
  }));
}
