import { MgmtError } from '@sesame/platform';
import type { Router } from 'express';
import { adminActivity } from '../../admin/admin-events';
import { tenantAdminRoute } from '../../admin/admin-route';
import type { AdminRouteDeps } from '../../admin/deps';
import { credentialsView } from '../../admin/views';

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
    },
    async ({ req, tenant, emit }) => {
      const credentialsId = req.params.credentialsId!;
      const existing = await deps.dir.credentials.get(tenant.tenantId, credentialsId);
      if (!existing)
        throw new MgmtError(404, 'credentials_not_found', 'no such API credentials in this tenant');
      const revoked = await deps.dir.credentials.revoke(tenant.tenantId, credentialsId, deps.clock.now());
      if (!revoked) throw new MgmtError(409, 'already_revoked', 'these API credentials are already revoked');
      await emit(tenant.tenantId, adminActivity.revokeApiCredential, { clientId: credentialsId });
      return credentialsView(revoked);
    },
  );
}
