import { newId, newSecret, sha256 } from '@sesame/platform';
import { Router } from 'express';
import { adminOf } from '../../admin/admin-auth';
import { adminActivity } from '../../admin/admin-events';
import { createApplicationBody } from '../../admin/application-schemas';
import type { AdminRouteDeps } from '../../admin/deps';
import { applicationView, requireTenant } from '../../admin/views';
import type { Application } from '../../directory/model';
import { asyncRoute } from '../../http/async-route';
import { parse } from '../../http/validate';

/**
 * POST /api/v1/admin/tenants/:tenantId/applications → 201 with the application and, for a confidential
 * client, its `clientSecret`: shown this once, stored as a sha256 hash (client authentication) and a copy
 * sealed under the server's key ring (interactive init signatures; secrets/client-secret-vault.ts).
 */
export function createApplicationRoute(deps: AdminRouteDeps): Router {
  return Router().post(
    '/api/v1/admin/tenants/:tenantId/applications',
    asyncRoute(async (req, res) => {
      const body = parse(createApplicationBody, req.body);
      const tenant = await requireTenant(deps.dir, req.params.tenantId!);
      const clientSecret = body.public ? undefined : newSecret();
      const now = deps.clock.now();
      const ids = { tenantId: tenant.tenantId, appId: newId(), clientId: newSecret(18) };
      const app: Application = {
        ...ids,
        name: body.name,
        clientType: body.public ? 'public' : 'confidential',
        ...(clientSecret
          ? {
              clientSecretHash: sha256(clientSecret),
              clientSecretSealed: deps.secretVault.seal(clientSecret, ids),
            }
          : {}),
        redirectUris: body.redirectUris,
        allowedScopes: body.allowedScopes,
        ciba: body.ciba,
        ...(body.auxLinkPrefix ? { auxLinkPrefix: body.auxLinkPrefix } : {}),
        ...(body.registrationRedirectUri ? { registrationRedirectUri: body.registrationRedirectUri } : {}),
        ...(body.registrationLinkExpiresIn
          ? { registrationLinkExpiresIn: body.registrationLinkExpiresIn }
          : {}),
        ...(body.refreshTokens ? { refreshTokens: body.refreshTokens } : {}),
        createdAt: now,
        updatedAt: now,
      };
      await deps.dir.applications.create(app);
      await deps.events.publish(adminOf(res), tenant.tenantId, adminActivity.createApplication, {
        appId: app.appId,
        appName: app.name,
      });
      res.status(201).json({ ...applicationView(app), ...(clientSecret ? { clientSecret } : {}) });
    }),
  );
}
