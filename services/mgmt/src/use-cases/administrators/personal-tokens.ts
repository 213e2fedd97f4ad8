import { displayText } from '@sesame/branding';
import { MgmtError, newId, sha256 } from '@sesame/platform';
import { API_TOKEN_DEFAULT_DAYS, newApiToken } from '../../admins/api-tokens';
import type { AdminRole, PersonalApiToken } from '../../admins/model';
import { isAllowed } from '../../admins/permissions';
import { type StepUpCaller, assertStepUp } from '../../admins/step-up';
import { type Emit, adminActivity } from '../../events/admin-events';
import type { AdminRouteDeps } from '../deps';

/** A token's name, as the admin API and the console's Personal API tokens form take it. */
export const tokenName = displayText(100);

const DAY_MS = 86_400_000;

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
