import type { Router } from 'express';
import { createApplicationBody } from '../../use-cases/applications/application-schemas';
import { createApplication } from '../../use-cases/applications/create-application';
import type { AdminRouteDeps } from '../../use-cases/deps';
import { tenantAdminRoute } from './admin-route';

/**
 * POST /api/v1/admin/tenants/:tenantId/applications → 201 with the application and, for a confidential
 * client, its `clientSecret`: shown this once, stored as a sha256 hash (client authentication) and a copy
 * sealed under the server's key ring (interactive init signatures; secrets/client-secret-vault.ts).
 */
export function createApplicationRoute(deps: AdminRouteDeps): Router {
  return tenantAdminRoute(
    deps,
    {
      method: 'post',
      action: 'application.write',
      stepUp: 'application.create',
      path: '/api/v1/admin/tenants/:tenantId/applications',
      body: createApplicationBody,
      status: 201,
    },
    async ({ body, tenant, emit }) => createApplication(deps, tenant.tenantId, body, emit),
  );
}
