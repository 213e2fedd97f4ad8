import { Router } from 'express';
import type { AdminRouteDeps } from '../../admin/deps';
import { credentialsView, requireTenant } from '../../admin/views';
import { asyncRoute } from '../../http/async-route';

/** GET /api/v1/admin/tenants/:tenantId/credentials → `{credentials: [...]}` (revoked ones with revokedAt). */
export function listCredentialsRoute(deps: AdminRouteDeps): Router {
  return Router().get(
    '/api/v1/admin/tenants/:tenantId/credentials',
    asyncRoute(async (req, res) => {
      const tenant = await requireTenant(deps.dir, req.params.tenantId!);
      res.json({ credentials: (await deps.dir.credentials.list(tenant.tenantId)).map(credentialsView) });
    }),
  );
}
