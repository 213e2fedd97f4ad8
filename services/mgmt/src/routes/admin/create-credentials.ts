import { newId, newSecret, sha256 } from '@sesame/platform';
import { Router } from 'express';
import { z } from 'zod';
import { adminOf } from '../../admin/admin-auth';
import { adminActivity } from '../../admin/admin-events';
import type { AdminRouteDeps } from '../../admin/deps';
import { credentialsView, requireTenant } from '../../admin/views';
import { asyncRoute } from '../../http/async-route';
import { parse } from '../../http/validate';

const createCredentialsBody = z.object({}).strict();

/**
 * POST /api/v1/admin/tenants/:tenantId/credentials → 201 `{credentialsId, apiSecret, tenantId, createdAt}`.
 * The API secret is shown this once and stored only as a sha256 hash.
 */
export function createCredentialsRoute(deps: AdminRouteDeps): Router {
  return Router().post(
    '/api/v1/admin/tenants/:tenantId/credentials',
    asyncRoute(async (req, res) => {
      parse(createCredentialsBody, req.body);
      const tenant = await requireTenant(deps.dir, req.params.tenantId!);
      const apiSecret = newSecret();
      const credentials = {
        tenantId: tenant.tenantId,
        credentialsId: newId(),
        secretHash: sha256(apiSecret),
        createdAt: deps.clock.now(),
      };
      await deps.dir.credentials.create(credentials);
      await deps.events.publish(adminOf(res), tenant.tenantId, adminActivity.createApiCredential, {
        clientId: credentials.credentialsId,
      });
      res.status(201).json({ ...credentialsView(credentials), apiSecret });
    }),
  );
}
