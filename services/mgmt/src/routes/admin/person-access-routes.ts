import { MgmtError } from '@sesame/platform';
import { Router } from 'express';
import { z } from 'zod';
import type { AdminRouteDeps } from '../../use-cases/deps';
import { setAccountDisabled, signOutEverywhere } from '../../use-cases/people/account-access';
import { requireSupport } from '../../use-cases/people/query';
import { tenantAdminRoute } from './admin-route';

const T = '/api/v1/admin/tenants/:tenantId/users/:userId';
const params = z.object({ userId: z.string().min(1).max(256) });
const empty = z.object({}).strict();

/**
 * The admin API's actions on a person's access (issue 38), as the console's person page does them:
 * - GET …/users/:userId/sessions → `{sessions: [{sid, deviceName, os, browser, place, startedAt, lastSeenAt,
 *   apps: [{clientId, name}]}]}` (users.read; 404 user_not_found);
 * - POST …/users/:userId/sign-out-everywhere `{}` → `{status, userId, endedSessions, notifiedApps}`
 *   (user.signOutEverywhere: Support too); administrator_sign_out_user_everywhere;
 * - POST …/users/:userId/disable `{}` → `{status, userId, disabled: true, changedAt, endedSessions}` and
 *   POST …/users/:userId/enable `{}` → `{status, userId, disabled: false, changedAt}` (user.disable:
 *   Administrators and Owners); administrator_disable_user / administrator_enable_user.
 */
export function personAccessRoutes(deps: AdminRouteDeps): Router {
  const status = (disabled: boolean) =>
    tenantAdminRoute(
      deps,
      {
        method: 'post',
        action: 'user.disable',
        stepUp: 'user.disable',
        path: `${T}/${disabled ? 'disable' : 'enable'}`,
        body: empty,
        params,
      },
      async ({ params: { userId }, tenant, emit }) => {
        const out = await setAccountDisabled(deps, { tenantId: tenant.tenantId, userId, disabled }, emit);
        return { status: 'success', userId, disabled, ...out };
      },
    );
  const router = Router();
  router.use(
    tenantAdminRoute(
      deps,
      { method: 'get', path: `${T}/sessions`, action: 'users.read', params },
      async ({ params: { userId }, tenant }) => {
        const sessions = await requireSupport(deps.support).userSessions(tenant.tenantId, userId);
        if (!sessions) throw new MgmtError(404, 'user_not_found', 'no such user in this tenant');
        return { sessions };
      },
    ),
    tenantAdminRoute(
      deps,
      {
        method: 'post',
        action: 'user.signOutEverywhere',
        stepUp: 'user.signOutEverywhere',
        path: `${T}/sign-out-everywhere`,
        body: empty,
        params,
      },
      async ({ params: { userId }, tenant, emit }) => {
        const out = await signOutEverywhere(deps, { tenantId: tenant.tenantId, userId }, emit);
        return { status: 'success', userId, ...out };
      },
    ),
    status(true),
    status(false),
  );
  return router;
}
