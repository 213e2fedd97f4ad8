import { newId } from '@sesame/platform';
import { Router } from 'express';
import { z } from 'zod';
import { adminOf } from '../../admin/admin-auth';
import { adminActivity } from '../../admin/admin-events';
import type { AdminRouteDeps } from '../../admin/deps';
import { tenantView } from '../../admin/views';
import { asyncRoute } from '../../http/async-route';
import { parse } from '../../http/validate';

export const createTenantBody = z
  .object({ name: z.string().trim().min(1, 'must not be empty').max(200) })
  .strict();

/** POST /api/v1/admin/tenants → 201 `{tenantId, name, createdAt, updatedAt}`. */
export function createTenantRoute(deps: AdminRouteDeps): Router {
  return Router().post(
    '/api/v1/admin/tenants',
    asyncRoute(async (req, res) => {
      const body = parse(createTenantBody, req.body);
      const now = deps.clock.now();
      const tenant = { tenantId: newId(), name: body.name, createdAt: now, updatedAt: now };
      await deps.dir.tenants.create(tenant);
      await deps.events.publish(adminOf(res), tenant.tenantId, adminActivity.createTenant, {
        tenantName: tenant.name,
      });
      res.status(201).json(tenantView(tenant));
    }),
  );
}
