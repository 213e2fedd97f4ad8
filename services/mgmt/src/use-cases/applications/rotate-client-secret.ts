import { MgmtError, newSecret, sha256 } from '@sesame/platform';
import type { Router } from 'express';
import { adminActivity } from '../../events/admin-events';
import { tenantAdminRoute } from '../../routes/admin/admin-route';
import type { Emit } from '../administrators/invitations';
import type { AdminRouteDeps } from '../deps';
import { requireApplication } from '../views';

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

/**
 * A new secret for a confidential client (the old one stops at once; 400 for a public client), published as
 * administrator_update_application; returns the secret, to be shown once. The admin API and the console.
 */
export async function rotateClientSecret(
  deps: Pick<AdminRouteDeps, 'dir' | 'clock' | 'secretVault'>,
  tenantId: string,
  appId: string,
  emit: Emit,
): Promise<string> {
  const app = await requireApplication(deps.dir, tenantId, appId);
  if (app.clientType !== 'confidential') {
    throw new MgmtError(400, 'invalid_request', 'a public client has no secret to rotate');
  }
  const clientSecret = newSecret();
  const updated = await deps.dir.applications.replaceSecret(tenantId, app.appId, {
    clientSecretHash: sha256(clientSecret),
    clientSecretSealed: deps.secretVault.seal(clientSecret, app),
    updatedAt: deps.clock.now(),
  });
  if (!updated) throw new MgmtError(404, 'application_not_found', 'no such application in this tenant');
  await emit(tenantId, adminActivity.updateApplication, {
    appId: app.appId,
    diff: JSON.stringify({ clientSecret: { from: 'hidden', to: 'rotated' } }),
  });
  return clientSecret;
}
