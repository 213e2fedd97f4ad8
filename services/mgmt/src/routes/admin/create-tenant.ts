import { newId } from '@sesame/platform';
import type { Router } from 'express';
import { z } from 'zod';
import { adminActivity } from '../../admin/admin-events';
import { adminRoute } from '../../admin/admin-route';
import type { AdminRouteDeps } from '../../admin/deps';
import { tenantView } from '../../admin/views';

export const createTenantBody = z
  .object({ name: z.string().trim().min(1, 'must not be empty').max(200) })
  .strict();

/** POST /api/v1/admin/tenants → 201 `{tenantId, name, createdAt, updatedAt}`. */
export function createTenantRoute(deps: AdminRouteDeps): Router {
  return adminRoute(
    deps,
    { method: 'post', path: '/api/v1/admin/tenants', body: createTenantBody, status: 201 },
    async ({ body, emit }) => {
      const now = deps.clock.now();
      const tenant = { tenantId: newId(), name: body.name, createdAt: now, updatedAt: now };
      await deps.dir.tenants.create(tenant);
      await emit(tenant.tenantId, adminActivity.createTenant, { tenantName: tenant.name });
      return tenantView(tenant);
    },
  );
}
