import { MgmtError } from '@sesame/platform';
import { type Emit, adminActivity } from '../../events/admin-events';
import type { AdminRouteDeps } from '../deps';

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
