import { Router } from 'express';
import { z } from 'zod';
import { parse } from '../../http/validate';
import { actorOf } from '../../use-cases/administrators/administrators';
import { invitationStatus, invitationView } from '../../use-cases/administrators/invitations';
import type { AdminRouteDeps } from '../../use-cases/deps';
import { tenantAdminRoute } from './admin-route';

const PATH = '/api/v1/admin/tenants/:tenantId/invitations';
const statusQuery = z
  .object({ status: z.enum(['pending', 'all'], { message: 'must be pending or all' }).default('pending') })
  .passthrough();
const idParams = z.object({ invitationId: z.string().min(1).max(100) }).passthrough();

/**
 * The tenant's invitations: the list (Owners and Administrators; the open ones, or `?status=all` every one
 * with its status) and cancel (Owners: the link stops working at once; administrator_cancel_invitation).
 * Inviting is POST on the same path (administrators.ts).
 */
export function invitationsRoutes(deps: AdminRouteDeps): Router {
  return Router().use(
    tenantAdminRoute(
      deps,
      { method: 'get', path: PATH, action: 'administrators.read' },
      async ({ req, tenant }) => {
        const { status } = parse(statusQuery, req.query, 'query');
        const now = deps.clock.now();
        const all = (await deps.admins.invitations.list(tenant.tenantId)).map((i) => ({
          ...invitationView(i),
          status: invitationStatus(i, now),
        }));
        return { invitations: status === 'all' ? all : all.filter((i) => i.status === 'pending') };
      },
    ),
    tenantAdminRoute(
      deps,
      { method: 'delete', path: `${PATH}/:invitationId`, action: 'administrators.invite', params: idParams },
      async ({ tenant, params, emit, principal }) => {
        const cancelled = await deps.invitations.cancel(
          tenant.tenantId,
          params.invitationId,
          emit,
          actorOf(principal),
        );
        return { ...cancelled, status: 'cancelled' as const };
      },
    ),
  );
}
