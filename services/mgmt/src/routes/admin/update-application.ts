import { MgmtError } from '@sesame/platform';
import type { Router } from 'express';
import { adminActivity } from '../../admin/admin-events';
import { tenantAdminRoute } from '../../admin/admin-route';
import { type UpdateApplicationBody, updateApplicationBody } from '../../admin/application-schemas';
import type { AdminRouteDeps } from '../../admin/deps';
import { settingsDiff } from '../../admin/diff';
import { applicationView, requireApplication } from '../../admin/views';
import type { Emit } from '../../admins/invitations';
import type { Application, ApplicationSettings } from '../../directory/model';

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
  return tenantAdminRoute(
    deps,
    {
      method: 'patch',
      action: 'application.write',
      path: '/api/v1/admin/tenants/:tenantId/applications/:appId',
      body: updateApplicationBody,
    },
    async ({ req, body, tenant, emit }) =>
      applicationView(await updateApplication(deps, tenant.tenantId, req.params.appId!, body, emit)),
  );
}

/**
 * Applies an update body to an application: fields present change, null clears; a real change publishes
 * administrator_update_application with its diff. The admin API and the console's application page.
 */
export async function updateApplication(
  deps: Pick<AdminRouteDeps, 'dir' | 'clock'>,
  tenantId: string,
  appId: string,
  body: UpdateApplicationBody,
  emit: Emit,
): Promise<Application> {
  const before = await requireApplication(deps.dir, tenantId, appId);
  const patch: Partial<ApplicationSettings> = {};
  for (const field of settingFields) {
    if (!(field in body)) continue;
    (patch as Record<string, unknown>)[field] = body[field] ?? undefined;
  }
  const diff = settingsDiff(before, { ...before, ...patch }, settingFields);
  if (!diff) return before;
  const after = await deps.dir.applications.update(tenantId, before.appId, {
    ...patch,
    updatedAt: deps.clock.now(),
  });
  if (!after) throw new MgmtError(404, 'application_not_found', 'no such application in this tenant');
  await emit(tenantId, adminActivity.updateApplication, { diff });
  return after;
}
