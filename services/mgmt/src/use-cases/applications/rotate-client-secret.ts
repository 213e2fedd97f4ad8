import { MgmtError, newSecret, sha256 } from '@sesame/platform';
import { type Emit, adminActivity } from '../../events/admin-events';
import type { AdminRouteDeps } from '../deps';
import { requireApplication } from '../views';

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
