import type { Router } from 'express';
import { revokeCredentials } from '../../use-cases/credentials/revoke-credentials';
import type { AdminRouteDeps } from '../../use-cases/deps';
import { credentialsView } from '../../use-cases/views';
import { tenantAdminRoute } from './admin-route';

/**
 * DELETE /api/v1/admin/tenants/:tenantId/credentials/:credentialsId → the revoked credentials. They stop
 * authenticating at /token at once, and bearer tokens minted with them stop working on the management API.
 */
export function revokeCredentialsRoute(deps: AdminRouteDeps): Router {
  return tenantAdminRoute(
    deps,
    {
      method: 'delete',
      path: '/api/v1/admin/tenants/:tenantId/credentials/:credentialsId',
      action: 'credentials.write',
      stepUp: 'credentials.revoke',
    },
    async ({ req, tenant, emit }) =>
      credentialsView(await revokeCredentials(deps, tenant.tenantId, req.params.credentialsId!, emit)),
  );
}
