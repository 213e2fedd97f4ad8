import { MgmtError } from '@sesame/platform';
import { Router } from 'express';
import { z } from 'zod';
import { adminOf } from '../../admin/admin-auth';
import { adminActivity } from '../../admin/admin-events';
import type { AdminRouteDeps } from '../../admin/deps';
import { settingsDiff } from '../../admin/diff';
import { requireTenant, tenantView } from '../../admin/views';
import { asyncRoute } from '../../http/async-route';
import { parse } from '../../http/validate';

export const updateTenantBody = z
  .object({ name: z.string().trim().min(1, 'must not be empty').max(200) })
  .strict();

/**
 * PATCH /api/v1/admin/tenants/:tenantId → the tenant. A real change publishes
 * administrator_update_general_settings with its diff; an update that changes nothing publishes nothing.
 */
export function updateTenantRoute(deps: AdminRouteDeps): Router {
  return Router().patch(
    '/api/v1/admin/tenants/:tenantId',
    asyncRoute(async (req, res) => {
      const body = parse(updateTenantBody, req.body);
      const before = await requireTenant(deps.dir, req.params.tenantId!);
      const diff = settingsDiff(before, { ...before, ...body }, ['name']);
      if (!diff) return void res.json(tenantView(before));
      const after = await deps.dir.tenants.update(before.tenantId, {
        name: body.name,
        updatedAt: deps.clock.now(),
      });
      if (!after) throw new MgmtError(404, 'tenant_not_found', 'no such tenant');
      await deps.events.publish(adminOf(res), after.tenantId, adminActivity.updateGeneralSettings, { diff });
      res.json(tenantView(after));
    }),
  );
}
