import { Router } from 'express';
import { z } from 'zod';
import { parse } from '../../http/validate';
import type { AdminRouteDeps } from '../../use-cases/deps';
import {
  addPerson,
  addPersonBody,
  removePersonPasskey,
  removePersonPhone,
} from '../../use-cases/people/person-actions';
import { DEFAULT_PAGE, requireSupport } from '../../use-cases/people/query';
import { tenantAdminRoute } from './admin-route';

const T = '/api/v1/admin/tenants/:tenantId';
const pathId = z.string().min(1).max(256);
const listQuery = z
  .object({
    limit: z.coerce.number().int().min(1).max(200).optional(),
    cursor: z
      .string()
      .max(400)
      .regex(/^[\w-]+$/, 'is not a cursor of this list')
      .optional(),
  })
  .strict();

/**
 * The admin API's people routes (issue 38), on the path's tenant only:
 * - GET …/people?limit&cursor → `{people: [{userId, email, createdAt, lastSignIn?, disabled, passkeys}],
 *   nextCursor?}`, newest first, a keyset page;
 * - POST …/people `{email, app}` (app: its id or client id) → `{status, email, appId, sent, expiresAt}`: the
 *   registration link, administrator_add_person;
 * - DELETE …/users/:userId/passkeys/:credentialId → administrator_remove_user_passkey (404 passkey_not_found);
 * - DELETE …/users/:userId/phone-number → administrator_remove_user_phone_number (404, 409 no_phone_number).
 */
export function peopleRoutes(deps: AdminRouteDeps): Router {
  return Router().use(
    tenantAdminRoute(
      deps,
      { method: 'get', path: `${T}/people`, action: 'users.read' },
      async ({ req, tenant }) => {
        const q = parse(listQuery, req.query, 'query');
        const page = await requireSupport(deps.support).listPeople(
          tenant.tenantId,
          q.limit ?? DEFAULT_PAGE,
          q.cursor,
        );
        return page;
      },
    ),
    tenantAdminRoute(
      deps,
      {
        method: 'post',
        path: `${T}/people`,
        action: 'person.add',
        stepUp: 'person.add',
        body: addPersonBody,
        status: 201,
      },
      async ({ req, body, tenant, emit }) => ({
        status: 'success',
        ...(await addPerson(deps, { tenantId: tenant.tenantId, clientIp: req.ip ?? '', ...body }, emit)),
      }),
    ),
    tenantAdminRoute(
      deps,
      {
        method: 'delete',
        path: `${T}/users/:userId/passkeys/:credentialId`,
        action: 'passkey.remove',
        stepUp: 'passkey.remove',
        params: z.object({ userId: pathId, credentialId: pathId }),
      },
      async ({ params: { userId, credentialId }, tenant, emit }) => {
        await removePersonPasskey(deps, { tenantId: tenant.tenantId, userId, credentialId }, emit);
        return { status: 'success', userId, credentialId };
      },
    ),
    tenantAdminRoute(
      deps,
      {
        method: 'delete',
        path: `${T}/users/:userId/phone-number`,
        action: 'phone.remove',
        stepUp: 'phone.remove',
        params: z.object({ userId: pathId }),
      },
      async ({ params: { userId }, tenant, emit }) => {
        await removePersonPhone(deps, { tenantId: tenant.tenantId, userId }, emit);
        return { status: 'success', userId };
      },
    ),
  );
}
