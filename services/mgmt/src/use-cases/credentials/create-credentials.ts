import { newId, newSecret, sha256 } from '@sesame/platform';
import type { Router } from 'express';
import { z } from 'zod';
import { adminActivity } from '../../events/admin-events';
import { tenantAdminRoute } from '../../routes/admin/admin-route';
import type { Emit } from '../administrators/invitations';
import type { AdminRouteDeps } from '../deps';
import { credentialsView } from '../views';

const createCredentialsBody = z.object({}).strict();

/**
 * POST /api/v1/admin/tenants/:tenantId/credentials → 201 `{credentialsId, apiSecret, tenantId, createdAt}`.
 * The API secret is shown this once and stored only as a sha256 hash.
 */
export function createCredentialsRoute(deps: AdminRouteDeps): Router {
  return tenantAdminRoute(
    deps,
    {
      method: 'post',
      action: 'credentials.write',
      stepUp: 'credentials.create',
      path: '/api/v1/admin/tenants/:tenantId/credentials',
      body: createCredentialsBody,
      status: 201,
    },
    async ({ tenant, emit }) => createCredentials(deps, tenant.tenantId, emit),
  );
}

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
