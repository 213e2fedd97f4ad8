import type { Router } from 'express';
import { rotateClientSecret } from '../../use-cases/applications/rotate-client-secret';
import type { AdminRouteDeps } from '../../use-cases/deps';
import { tenantAdminRoute } from './admin-route';

/**
 * POST /api/v1/admin/tenants/:tenantId/applications/:appId/client-secret → 200 `{ clientSecret }`: a new
 * secret for a confidential client, shown this once; the old one stops authenticating at once. Stored as the
 * hash and the sealed copy, so it also gives an application created before sealed copies existed what
 * interactive init needs. A public client has no secret: 400. Publishes administrator_update_application.
 */
export function rotateClientSecretRoute(deps: AdminRouteDeps): Router {
  return tenantAdminRoute(
    deps,
    {
      method: 'post',
      path: '/api/v1/admin/tenants/:tenantId/applications/:appId/client-secret',
      action: 'application.write',
      stepUp: 'application.rotateSecret',
    },
    async ({ req, tenant, emit }) => ({
      clientSecret: await rotateClientSecret(deps, tenant.tenantId, req.params.appId!, emit),
    }),
  );
}
