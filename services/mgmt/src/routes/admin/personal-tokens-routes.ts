import { MgmtError } from '@sesame/platform';
import { Router } from 'express';
import { z } from 'zod';
import { API_TOKEN_MAX_DAYS } from '../../admins/api-tokens';
import { isAllowed } from '../../admins/permissions';
import type { AdminPrincipal } from '../../admins/principal';
import {
  issuePersonalToken,
  revokePersonalToken,
  tokenName,
  tokenView,
} from '../../use-cases/administrators/personal-tokens';
import type { AdminRouteDeps } from '../../use-cases/deps';
import { tenantAdminRoute } from './admin-route';

const PATH = '/api/v1/admin/tenants/:tenantId/tokens';
const createBody = z
  .object({
    name: tokenName,
    expiresInDays: z.number().int().min(1).max(API_TOKEN_MAX_DAYS).optional(),
  })
  .strict();
const tokenParams = z.object({ tokenId: z.string().min(1).max(64) }).passthrough();
const listQuery = z.object({ all: z.enum(['true', 'false']).optional() }).passthrough();

/** Personal tokens belong to a person: the bootstrap key is nobody, so it has none (403). */
function personOf(principal: AdminPrincipal): string {
  if (principal.kind !== 'token') {
    throw new MgmtError(
      403,
      'forbidden',
      'the bootstrap key has no personal API tokens; sign in to the console',
    );
  }
  return principal.email;
}

/**
 * Personal API tokens in a tenant: create (a console session with a recent sign-in only: a token calling is
 * 403 step_up_required), list one's own (`?all=true`: an Owner lists every administrator's), revoke one's
 * own (an Owner: anyone's in the tenant). Create and revoke publish admin events with the actor.
 */
export function personalTokensRoutes(deps: AdminRouteDeps): Router {
  return Router().use(
    tenantAdminRoute(
      deps,
      {
        method: 'post',
        path: PATH,
        action: 'ownTokens.manage',
        stepUp: 'token.create',
        body: createBody,
        status: 201,
      },
      async ({ tenant, body, principal, emit }) => {
        const issued = await issuePersonalToken(
          deps,
          tenant.tenantId,
          personOf(principal),
          body.name,
          emit,
          body.expiresInDays,
        );
        return { ...tokenView(issued.record), token: issued.token };
      },
    ),
    tenantAdminRoute(
      deps,
      { method: 'get', path: PATH, action: 'ownTokens.manage' },
      async ({ req, tenant, principal, role }) => {
        const email = personOf(principal);
        const all = parseAll(req.query);
        if (all && !isAllowed(role, 'tokens.manageAll')) {
          throw new MgmtError(403, 'forbidden', `the ${role} role may not do tokens.manageAll`);
        }
        return {
          tokens: (await deps.admins.tokens.list(tenant.tenantId, all ? undefined : email)).map(tokenView),
        };
      },
    ),
    tenantAdminRoute(
      deps,
      { method: 'delete', path: `${PATH}/:tokenId`, action: 'ownTokens.manage', params: tokenParams },
      async ({ tenant, params, principal, role, emit }) => {
        const email = personOf(principal);
        const by = { tenantId: tenant.tenantId, email, role, caller: principal };
        return tokenView(await revokePersonalToken(deps, by, params.tokenId, emit));
      },
    ),
  );
}
const parseAll = (query: unknown): boolean => {
  const parsed = listQuery.safeParse(query);
  if (!parsed.success) {
    throw new MgmtError(400, 'invalid_request', 'invalid query', { all: 'must be true or false, once' });
  }
  return parsed.data.all === 'true';
};
