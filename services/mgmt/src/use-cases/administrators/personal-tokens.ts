import { displayText } from '@sesame/branding';
import { MgmtError, newId, sha256 } from '@sesame/platform';
import { Router } from 'express';
import { z } from 'zod';
import { API_TOKEN_DEFAULT_DAYS, API_TOKEN_MAX_DAYS, newApiToken } from '../../admins/api-tokens';
import type { AdminRole, PersonalApiToken } from '../../admins/model';
import { isAllowed } from '../../admins/permissions';
import { type StepUpCaller, assertStepUp } from '../../admins/step-up';
import { adminActivity } from '../../events/admin-events';
import type { AdminPrincipal } from '../../routes/admin/admin-auth';
import { tenantAdminRoute } from '../../routes/admin/admin-route';
import type { AdminRouteDeps } from '../deps';
import type { Emit } from './invitations';

/** A token's name, as the admin API and the console's Personal API tokens form take it. */
export const tokenName = displayText(100);

const PATH = '/api/v1/admin/tenants/:tenantId/tokens';
const DAY_MS = 86_400_000;
const createBody = z
  .object({
    name: tokenName,
    expiresInDays: z.number().int().min(1).max(API_TOKEN_MAX_DAYS).optional(),
  })
  .strict();
const tokenParams = z.object({ tokenId: z.string().min(1).max(64) }).passthrough();
const listQuery = z.object({ all: z.enum(['true', 'false']).optional() }).passthrough();

export const tokenView = (t: PersonalApiToken) => ({
  tokenId: t.tokenId,
  name: t.name,
  email: t.email,
  createdAt: t.createdAt,
  expiresAt: t.expiresAt,
  ...(t.revokedAt !== undefined ? { revokedAt: t.revokedAt } : {}),
  ...(t.lastUsedAt !== undefined ? { lastUsedAt: t.lastUsedAt } : {}),
});

/**
 * Issues a personal API token (only its hash is stored) and publishes administrator_create_api_token as the
 * caller; the admin API and the console both call this, after the step-up table's token.create (a token may
 * not make tokens: only a console session with a recent sign-in).
 */
export async function issuePersonalToken(
  deps: Pick<AdminRouteDeps, 'admins' | 'clock'>,
  tenantId: string,
  email: string,
  name: string,
  emit: Emit,
  expiresInDays = API_TOKEN_DEFAULT_DAYS,
): Promise<{ record: PersonalApiToken; token: string }> {
  const token = newApiToken();
  const now = deps.clock.now();
  const record: PersonalApiToken = {
    tokenId: newId(),
    tenantId,
    email,
    name,
    tokenHash: sha256(token),
    createdAt: now,
    expiresAt: now + expiresInDays * DAY_MS,
  };
  await deps.admins.tokens.create(record);
  await emit(tenantId, adminActivity.createApiToken, {
    tokenId: record.tokenId,
    name,
    email,
    expiresAt: record.expiresAt,
  });
  return { record, token };
}

/**
 * Revokes a live token of the tenant: one's own, or, for an Owner, any administrator's (404 token_not_found
 * otherwise, saying nothing of others' tokens). The step-up row is token.revoke or token.revokeOther; then
 * administrator_revoke_api_token is published as the caller.
 */
export async function revokePersonalToken(
  deps: Pick<AdminRouteDeps, 'admins' | 'clock'>,
  by: { tenantId: string; email: string; role: AdminRole; caller: StepUpCaller },
  tokenId: string,
  emit: Emit,
): Promise<PersonalApiToken> {
  const all = isAllowed(by.role, 'tokens.manageAll');
  const found = (await deps.admins.tokens.list(by.tenantId, all ? undefined : by.email)).find(
    (t) => t.tokenId === tokenId && t.revokedAt === undefined,
  );
  if (!found) throw new MgmtError(404, 'token_not_found', 'no such live token of yours');
  assertStepUp(found.email === by.email ? 'token.revoke' : 'token.revokeOther', by.caller, deps.clock.now());
  const revoked = await deps.admins.tokens.revoke(by.tenantId, found.email, tokenId, deps.clock.now());
  if (!revoked) throw new MgmtError(404, 'token_not_found', 'no such live token of yours');
  await emit(by.tenantId, adminActivity.revokeApiToken, {
    tokenId,
    name: revoked.name,
    email: revoked.email,
  });
  return revoked;
}

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
