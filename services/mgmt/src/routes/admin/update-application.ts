import { MgmtError } from '@sesame/platform';
import { Router } from 'express';
import { adminOf } from '../../admin/admin-auth';
import { adminActivity } from '../../admin/admin-events';
import { updateApplicationBody } from '../../admin/application-schemas';
import type { AdminRouteDeps } from '../../admin/deps';
import { settingsDiff } from '../../admin/diff';
import { applicationView, requireApplication, requireTenant } from '../../admin/views';
import type { ApplicationSettings } from '../../directory/model';
import { asyncRoute } from '../../http/async-route';
import { parse } from '../../http/validate';

const settingFields = [
  'name',
  'redirectUris',
  'allowedScopes',
  'ciba',
  'auxLinkPrefix',
  'registrationRedirectUri',
  'registrationLinkExpiresIn',
  'refreshTokens',
] as const satisfies ReadonlyArray<keyof ApplicationSettings>;

/**
 * PATCH /api/v1/admin/tenants/:tenantId/applications/:appId → the application. Fields present change, null
 * clears an optional one. A real change publishes administrator_update_application with its diff; an
 * update that changes nothing publishes nothing.
 */
export function updateApplicationRoute(deps: AdminRouteDeps): Router {
  return Router().patch(
    '/api/v1/admin/tenants/:tenantId/applications/:appId',
    asyncRoute(async (req, res) => {
      const body = parse(updateApplicationBody, req.body);
      const tenant = await requireTenant(deps.dir, req.params.tenantId!);
      const before = await requireApplication(deps.dir, tenant.tenantId, req.params.appId!);
      const patch: Partial<ApplicationSettings> = {};
      for (const field of settingFields) {
        if (!(field in body)) continue;
        (patch as Record<string, unknown>)[field] = body[field] ?? undefined;
      }
      const diff = settingsDiff(before, { ...before, ...patch }, settingFields);
      if (!diff) return void res.json(applicationView(before));
      const after = await deps.dir.applications.update(tenant.tenantId, before.appId, {
        ...patch,
        updatedAt: deps.clock.now(),
      });
      if (!after) throw new MgmtError(404, 'application_not_found', 'no such application in this tenant');
      await deps.events.publish(adminOf(res), tenant.tenantId, adminActivity.updateApplication, { diff });
      res.json(applicationView(after));
    }),
  );
}
