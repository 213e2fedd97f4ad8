import { MgmtError } from '@sesame/platform';
import { Router } from 'express';
import { z } from 'zod';
import type { AdminAccount } from '../../admins/model';
import { adminEmail, adminRole, inviteeLocale } from '../../admins/schemas';
import { DuplicateKeyError } from '../../directory/directory.repository';
import { adminActivity } from '../../events/admin-events';
import {
  accountView,
  actorOf,
  changeRole,
  removeAdministrator,
} from '../../use-cases/administrators/administrators';
import { invitationStatus, invitationView } from '../../use-cases/administrators/invitations';
import type { AdminRouteDeps } from '../../use-cases/deps';
import { tenantAdminRoute } from './admin-route';

const PATH = '/api/v1/admin/tenants/:tenantId/administrators';
const inviteBody = z
  .object({ email: adminEmail, role: adminRole, locale: inviteeLocale.optional() })
  .strict();
const roleBody = z.object({ role: adminRole }).strict();
const addBody = z.object({ email: adminEmail, role: adminRole }).strict();
const emailParams = z.object({ email: adminEmail }).passthrough();

/**
 * The tenant's administrators: list (with pending invitations), invite by email and role (mailed,
 * single-use link), change a role, remove (their personal API tokens are revoked at once). The last Owner
 * can be neither removed nor demoted (409 last_owner). Adding an administrator without an invitation is
 * break-glass recovery only (the bootstrap key while SESAME_ADMIN_BREAK_GLASS is on: a tenant whose Owners
 * are gone, or the development demo's seeded Owner), credited to bootstrap-key.
 */
export function administratorsRoutes(deps: AdminRouteDeps): Router {
  return Router().use(
    tenantAdminRoute(
      deps,
      { method: 'get', path: PATH, action: 'administrators.read' },
      async ({ tenant }) => {
        const now = deps.clock.now();
        const pending = (await deps.admins.invitations.list(tenant.tenantId)).filter(
          (i) => invitationStatus(i, now) === 'pending',
        );
        return {
          administrators: (await deps.admins.accounts.list(tenant.tenantId)).map(accountView),
          invitations: pending.map(invitationView),
        };
      },
    ),
    tenantAdminRoute(
      deps,
      {
        method: 'post',
        path: '/api/v1/admin/tenants/:tenantId/invitations',
        action: 'administrators.invite',
        stepUp: 'administrators.invite',
        body: inviteBody,
        status: 201,
      },
      async ({ tenant, body, emit, principal }) => {
        if (await deps.admins.accounts.get(tenant.tenantId, body.email)) {
          throw new MgmtError(409, 'already_administrator', 'this email is already an administrator here');
        }
        return deps.invitations.invite(tenant, body.email, body.role, emit, actorOf(principal), body.locale);
      },
    ),
    tenantAdminRoute(
      deps,
      { method: 'post', path: PATH, action: 'administrators.invite', body: addBody, status: 201 },
      async ({ tenant, body, emit, principal }) => {
        if (principal.kind !== 'bootstrap' || !principal.breakGlass) {
          throw new MgmtError(
            403,
            'forbidden',
            'administrators join by invitation; adding one directly is a break-glass recovery of the bootstrap key',
          );
        }
        const account: AdminAccount = {
          tenantId: tenant.tenantId,
          email: body.email,
          role: body.role,
          createdAt: deps.clock.now(),
        };
        try {
          await deps.admins.accounts.create(account);
        } catch (err) {
          if (err instanceof DuplicateKeyError) {
            throw new MgmtError(409, 'already_administrator', 'this email is already an administrator here');
          }
          throw err;
        }
        await emit(tenant.tenantId, adminActivity.invitationApproved, {
          email: body.email,
          role: body.role,
          breakGlass: true,
        });
        return accountView(account);
      },
    ),
    tenantAdminRoute(
      deps,
      {
        method: 'patch',
        path: `${PATH}/:email`,
        action: 'administrators.changeRole',
        stepUp: 'administrators.changeRole',
        body: roleBody,
        params: emailParams,
      },
      async ({ tenant, body, params, emit, principal }) =>
        accountView(
          await changeRole(deps, tenant.tenantId, params.email, body.role, emit, actorOf(principal)),
        ),
    ),
    tenantAdminRoute(
      deps,
      {
        method: 'delete',
        path: `${PATH}/:email`,
        action: 'administrators.remove',
        stepUp: 'administrators.remove',
        params: emailParams,
      },
      async ({ tenant, params, emit, principal }) => {
        const revokedTokens = await removeAdministrator(
          deps,
          tenant.tenantId,
          params.email,
          emit,
          actorOf(principal),
        );
        return { status: 'success', revokedTokens };
      },
    ),
  );
}
