import { newId, newSecret, sha256 } from '@sesame/platform';
import { type Emit, adminActivity } from '../../events/admin-events';
import type { AdminRouteDeps } from '../deps';
import { credentialsView } from '../views';

/**
 * New API credentials of a tenant (the secret shown this once, stored as a sha256 hash); emits
 * administrator_create_api_credential as the caller: the admin API and the console's API credentials page.
 */
export async function createCredentials(
  deps: Pick<AdminRouteDeps, 'dir' | 'clock'>,
  tenantId: string,
  emit: Emit,
) {
  const apiSecret = newSecret();
  const credentials = {
    tenantId,
    credentialsId: newId(),
    secretHash: sha256(apiSecret),
    createdAt: deps.clock.now(),
  };
  await deps.dir.credentials.create(credentials);
  await emit(tenantId, adminActivity.createApiCredential, { clientId: credentials.credentialsId });
  return { ...credentialsView(credentials), apiSecret };
}
