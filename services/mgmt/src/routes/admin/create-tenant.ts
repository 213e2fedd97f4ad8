import { MgmtError, newId } from '@sesame/platform';
import type { Router } from 'express';
import { adminActivity } from '../../events/admin-events';
import type { AdminRouteDeps } from '../../use-cases/deps';
import { createTenantBody } from '../../use-cases/tenants/tenant-schemas';
import { tenantView } from '../../use-cases/views';
import { adminRoute } from './admin-route';

/**
 * POST /api/v1/admin/tenants → 201 `{tenantId, name, createdAt, updatedAt}` (+ `invitation` with
 * ownerEmail). An administrator's token: the caller becomes the new tenant's Owner. The bootstrap key: the
 * tenant's first Owner is invited by mail (ownerEmail, required unless break-glass is on), since the key is
 * nobody.
 */
export function createTenantRoute(deps: AdminRouteDeps): Router {
  return adminRoute(
    deps,
    {
      method: 'post',
      path: '/api/v1/admin/tenants',
      action: 'tenant.create',
      stepUp: 'tenant.create',
      body: createTenantBody,
      status: 201,
    },
    async ({ body, emit, principal }) => {
      if (principal.kind === 'token' && body.ownerEmail !== undefined) {
        throw new MgmtError(400, 'invalid_request', 'invalid request', {
          ownerEmail: 'only the bootstrap key invites a first Owner; you become this tenant’s Owner',
        });
      }
      if (principal.kind === 'bootstrap' && !principal.breakGlass && body.ownerEmail === undefined) {
        throw new MgmtError(400, 'invalid_request', 'invalid request', {
          ownerEmail:
            'the bootstrap key creates a tenant with its first Owner invitation: ownerEmail is required',
        });
      }
      const now = deps.clock.now();
      const tenant = { tenantId: newId(), name: body.name, createdAt: now, updatedAt: now };
      await deps.dir.tenants.create(tenant);
      await emit(tenant.tenantId, adminActivity.createTenant, { tenantName: tenant.name });
      if (principal.kind === 'token') {
        await deps.admins.accounts.create({
          tenantId: tenant.tenantId,
          email: principal.email,
          role: 'owner',
          createdAt: now,
        });
        return tenantView(tenant);
      }
      if (body.ownerEmail === undefined) return tenantView(tenant);
      const invitation = await deps.invitations.invite(
        tenant,
        body.ownerEmail,
        'owner',
        emit,
        undefined,
        body.ownerLocale,
      );
      return { ...tenantView(tenant), invitation };
    },
  );
}
