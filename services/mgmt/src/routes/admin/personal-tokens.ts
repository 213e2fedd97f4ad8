import { displayText } from '@sesame/branding';
import { MgmtError, newId, sha256 } from '@sesame/platform';
import { Router } from 'express';
import { z } from 'zod';
import type { AdminPrincipal } from '../../admin/admin-auth';
import { tenantAdminRoute } from '../../admin/admin-route';
import type { AdminRouteDeps } from '../../admin/deps';
import { API_TOKEN_DEFAULT_DAYS, API_TOKEN_MAX_DAYS, newApiToken } from '../../admins/api-tokens';
import type { PersonalApiToken } from '../../admins/model';

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

export const tokenView = (t: PersonalApiToken) => ({
  tokenId: t.tokenId,
  name: t.name,
  createdAt: t.createdAt,
  expiresAt: t.expiresAt,
  ...(t.revokedAt !== undefined ? { revokedAt: t.revokedAt } : {}),
  ...(t.lastUsedAt !== undefined ? { lastUsedAt: t.lastUsedAt } : {}),
});

/** Issues a personal API token (only its hash is stored); the admin API and the console both call this. */
export async function issuePersonalToken(
  deps: Pick<AdminRouteDeps, 'admins' | 'clock'>,
  tenantId: string,
  email: string,
  name: string,
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
  return { record, token };
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
 * The caller's own personal API tokens in a tenant: create (the token is shown this once; only its sha256
 * hash is stored), list, revoke. A token acts with its administrator's role and is recorded under their email.
 */
export function personalTokensRoutes(deps: AdminRouteDeps): Router {
  return Router().use(
    tenantAdminRoute(
      deps,
      { method: 'post', path: PATH, action: 'ownTokens.manage', body: createBody, status: 201 },
      async ({ tenant, body, principal }) => {
        const issued = await issuePersonalToken(
          deps,
          tenant.tenantId,
          personOf(principal),
          body.name,
          body.expiresInDays,
        );
        return { ...tokenView(issued.record), token: issued.token };
      },
    ),
    tenantAdminRoute(
      deps,
      { method: 'get', path: PATH, action: 'ownTokens.manage' },
      async ({ tenant, principal }) => ({
        tokens: (await deps.admins.tokens.list(tenant.tenantId, personOf(principal))).map(tokenView),
      }),
    ),
    tenantAdminRoute(
      deps,
      { method: 'delete', path: `${PATH}/:tokenId`, action: 'ownTokens.manage', params: tokenParams },
      async ({ tenant, params, principal }) => {
        const revoked = await deps.admins.tokens.revoke(
          tenant.tenantId,
          personOf(principal),
          params.tokenId,
          deps.clock.now(),
        );
        if (!revoked) throw new MgmtError(404, 'token_not_found', 'no such live token of yours');
        return tokenView(revoked);
      },
    ),
  );
}
