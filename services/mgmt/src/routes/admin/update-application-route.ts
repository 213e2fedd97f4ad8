import type { Router } from 'express';
import { REDIRECT_FIELDS, assertStepUp, touches } from '../../admins/step-up';
import { updateApplicationBody } from '../../use-cases/applications/application-schemas';
import { updateApplication } from '../../use-cases/applications/update-application';
import type { AdminRouteDeps } from '../../use-cases/deps';
import { applicationView, requireApplication } from '../../use-cases/views';
import { tenantAdminRoute } from './admin-route';

/**
 * PATCH /api/v1/admin/tenants/:tenantId/applications/:appId → the application (+ `clientSecret`, shown once,
 * when `public: false` made a public client confidential). Fields present change, null clears an optional
 * one; `public: true` makes a confidential client public and removes its secret. A real change publishes
 * administrator_update_application with its diff; an update that changes nothing publishes nothing.
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
    async ({ req, body, tenant, emit, principal }) => {
      // The step-up table's application rows (a token may: see admins/step-up.ts), checked like the console's.
      const before = await requireApplication(deps.dir, tenant.tenantId, req.params.appId!);
      const now = deps.clock.now();
      if (touches(before, body, REDIRECT_FIELDS)) assertStepUp('application.redirects', principal, now);
      if (body.public !== undefined) assertStepUp('application.clientType', principal, now);
      const { app, clientSecret } = await updateApplication(
        deps,
        tenant.tenantId,
        req.params.appId!,
        body,
        emit,
      );
      return clientSecret === undefined ? applicationView(app) : { ...applicationView(app), clientSecret };
    },
  );
}
