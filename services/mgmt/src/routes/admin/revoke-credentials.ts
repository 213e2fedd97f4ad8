import { MgmtError } from '@sesame/platform';
import { Router } from 'express';
import { adminOf } from '../../admin/admin-auth';
import { adminActivity } from '../../admin/admin-events';
import type { AdminRouteDeps } from '../../admin/deps';
import { credentialsView, requireTenant } from '../../admin/views';
import { asyncRoute } from '../../http/async-route';

/**
 * DELETE /api/v1/admin/tenants/:tenantId/credentials/:credentialsId → the revoked credentials. They stop
 * authenticating at /token at once, and bearer tokens minted with them stop working on the management API.
 */
export function revokeCredentialsRoute(deps: AdminRouteDeps): Router {
  return Router().delete(
    '/api/v1/admin/tenants/:tenantId/credentials/:credentialsId',
    asyncRoute(async (req, res) => {
      const tenant = await requireTenant(deps.dir, req.params.tenantId!);
      const credentialsId = req.params.credentialsId!;
      const existing = await deps.dir.credentials.get(tenant.tenantId, credentialsId);
      if (!existing)
        throw new MgmtError(404, 'credentials_not_found', 'no such API credentials in this tenant');
      const revoked = await deps.dir.credentials.revoke(tenant.tenantId, credentialsId, deps.clock.now());
      if (!revoked) throw new MgmtError(409, 'already_revoked', 'these API credentials are already revoked');
      await deps.events.publish(adminOf(res), tenant.tenantId, adminActivity.revokeApiCredential, {
        clientId: credentialsId,
      });
      res.json(credentialsView(revoked));
    }),
  );
}
