import type { Router } from 'express';
import { tenantAdminRoute } from '../../admin/admin-route';
import type { AdminRouteDeps } from '../../admin/deps';
import { credentialsView } from '../../admin/views';

/** GET /api/v1/admin/tenants/:tenantId/credentials → `{credentials: [...]}` (revoked ones with revokedAt). */
export function listCredentialsRoute(deps: AdminRouteDeps): Router {
  return tenantAdminRoute(
    deps,
    { method: 'get', path: '/api/v1/admin/tenants/:tenantId/credentials', action: 'credentials.read' },
    async ({ tenant }) => ({
      credentials: (await deps.dir.credentials.list(tenant.tenantId)).map(credentialsView),
    }),
  );
}
