import type { Router } from 'express';
import { z } from 'zod';
import { createCredentials } from '../../use-cases/credentials/create-credentials';
import type { AdminRouteDeps } from '../../use-cases/deps';
import { tenantAdminRoute } from './admin-route';

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
