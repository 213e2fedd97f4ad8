import type { Router } from 'express';
import type { AdminRouteDeps } from '../../use-cases/deps';
import { credentialsView } from '../../use-cases/views';
import { tenantAdminRoute } from './admin-route';

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
