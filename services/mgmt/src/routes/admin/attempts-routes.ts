import { Router } from 'express';
import { z } from 'zod';
import type { AdminRouteDeps } from '../../use-cases/deps';
import { eraseAttempts } from '../../use-cases/people/attempts';
import { address, requireSupport } from '../../use-cases/people/query';
import { tenantAdminRoute } from './admin-route';

const T = '/api/v1/admin/tenants/:tenantId';

/**
 * Sign-in attempts by typed address (issue 38):
 * - POST …/attempts/erase `{email}` → `{email, erased}`: deletes every sign-in record of the tenant the address
 *   was typed in (lower-case match), account or not; publishes administrator_erase_attempts {email, erased}.
 *   Administrators and Owners (`attempts.erase`). Listing them is GET …/flows?email=ADDRESS.
 */
export function attemptsRoutes(deps: AdminRouteDeps): Router {
  return Router().use(
    tenantAdminRoute(
      deps,
      {
        method: 'post',
        path: `${T}/attempts/erase`,
        action: 'attempts.erase',
        body: z.object({ email: address }).strict(),
      },
      async ({ body, tenant, emit }) =>
        eraseAttempts(requireSupport(deps.support), { tenantId: tenant.tenantId, email: body.email }, emit),
    ),
  );
}
