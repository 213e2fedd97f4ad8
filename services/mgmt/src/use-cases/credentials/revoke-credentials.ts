import { MgmtError } from '@sesame/platform';
import type { Router } from 'express';
import { adminActivity } from '../../events/admin-events';
import { tenantAdminRoute } from '../../routes/admin/admin-route';
import type { Emit } from '../administrators/invitations';
import type { AdminRouteDeps } from '../deps';
import { credentialsView } from '../views';

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

/**
 * Revokes a tenant's API credentials (404 when none, 409 when already revoked) and emits
 * administrator_revoke_api_credential as the caller: the admin API and the console's API credentials page.
 */
export async function revokeCredentials(
  deps: Pick<AdminRouteDeps, 'dir' | 'clock'>,
  tenantId: string,
  credentialsId: string,
  emit: Emit,
) {
  const existing = await deps.dir.credentials.get(tenantId, credentialsId);
  if (!existing) throw new MgmtError(404, 'credentials_not_found', 'no such API credentials in this tenant');
  const revoked = await deps.dir.credentials.revoke(tenantId, credentialsId, deps.clock.now());
  if (!revoked) throw new MgmtError(409, 'already_revoked', 'these API credentials are already revoked');
  await emit(tenantId, adminActivity.revokeApiCredential, { clientId: credentialsId });
  return revoked;
}
