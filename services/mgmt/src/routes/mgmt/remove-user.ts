import { MgmtError, normalizeIp } from '@sesame/platform';
import { users } from '@sesame/proto';
import { type Request, Router } from 'express';
import { z } from 'zod';
import { API_CREDENTIALS_ADMIN, type AdminEventPublisher, type Emit } from '../../events/admin-events';
import { asyncRoute } from '../../http/async-route';
import type { GrantRevocationPeer, UsersPeer } from '../../peers';
import { type TenantApps, assertAppOfTenant, assertSameCredentials, principalOf } from '../../principal';
import type { SupportPort } from '../../support/port';
import { removePerson } from '../../use-cases/people/remove-person';

const identifierTypes = {
  user_id: users.UserIdentifierType.USER_IDENTIFIER_TYPE_USER_ID,
  alias: users.UserIdentifierType.USER_IDENTIFIER_TYPE_ALIAS,
};
const scopes = { tenant: users.RemovalScope.REMOVAL_SCOPE_TENANT, app: users.RemovalScope.REMOVAL_SCOPE_APP };

/**
 * Spec 7's "400 N/A, invalid request structure" row, given the concrete code `invalid_request`: a query
 * parameter repeated or not a plain string, credentialsId missing, or an over-long identifier.
 */
const structure = z.object({
  userIdentifier: z.string().min(1).max(512),
  credentialsId: z.string({ required_error: 'is required' }).min(1, 'is required').max(256),
  userIdentifierType: z.string().max(64).optional(),
  scope: z.string().max(64).optional(),
  appId: z.string().max(256).optional(),
});
type Query = z.infer<typeof structure>;

function checkStructure(req: Request): Query {
  const parsed = structure.safeParse({ ...req.query, userIdentifier: req.params.userIdentifier });
  if (parsed.success) return parsed.data;
  const fields = Object.fromEntries(
    parsed.error.issues.map((i) => [
      String(i.path[0]),
      i.code === 'invalid_type' && i.received !== 'undefined' ? 'must be given once' : i.message,
    ]),
  );
  throw new MgmtError(400, 'invalid_request', 'invalid request structure', fields);
}

function checkUserIdentifierType(q: Query): users.UserIdentifierType {
  const type = identifierTypes[q.userIdentifierType as keyof typeof identifierTypes];
  if (!q.userIdentifierType || !Object.hasOwn(identifierTypes, q.userIdentifierType) || type === undefined) {
    throw new MgmtError(400, 'invalid_userIdentifierType', 'userIdentifierType must be user_id or alias', {
      userIdentifierType: 'must be user_id or alias',
    });
  }
  return type;
}

function checkScope(q: Query): users.RemovalScope {
  if (!q.scope || !Object.hasOwn(scopes, q.scope)) {
    throw new MgmtError(400, 'invalid_scope', 'scope must be tenant or app', {
      scope: 'must be tenant or app',
    });
  }
  return scopes[q.scope as keyof typeof scopes];
}

function checkAppId(q: Query, scope: users.RemovalScope): void {
  if (scope === users.RemovalScope.REMOVAL_SCOPE_APP && !q.appId) {
    throw new MgmtError(400, 'missing_appId', 'appId is required when scope is app', {
      appId: 'is required when scope is app',
    });
  }
}

/**
 * DELETE /api/v1/mgmt/users/:userIdentifier (spec 4.8): removes the user's association with one application
 * (scope app) or with every application of the token's tenant (scope tenant), through Users.RemoveUser.
 * Checks, in order: request structure, userIdentifierType, scope, appId, credentialsId of the token, appId of
 * the token's tenant, then the user (403 user_not_found, also for a user of another tenant). Then the user's
 * refresh tokens (of the tenant, or of that app) end in token (Grants.RevokeUserGrants). The removal publishes
 * administrator_remove_user as the API credentials (adminEmail `api-credentials`, sessionId the credentialsId).
 */
export function removeUserRoute(deps: {
  users: UsersPeer;
  grants: GrantRevocationPeer;
  apps: TenantApps;
  events: AdminEventPublisher;
  /** Erases the removed person's sign-in records (issue 38); absent: nothing to erase on this server. */
  support?: SupportPort;
}): Router {
  return Router().delete(
    '/api/v1/mgmt/users/:userIdentifier',
    asyncRoute(async (req, res) => {
      const principal = principalOf(res);
      const query = checkStructure(req);
      const identifierType = checkUserIdentifierType(query);
      const scope = checkScope(query);
      checkAppId(query, scope);
      assertSameCredentials(principal, query.credentialsId);
      if (query.appId) await assertAppOfTenant(deps.apps, principal, query.appId);
      const actor = {
        adminEmail: API_CREDENTIALS_ADMIN,
        clientIp: normalizeIp(req.ip ?? ''),
        sessionId: principal.credentialsId,
      };
      const emit: Emit = async (tenantId, activityType, data) => {
        await deps.events.publish(actor, tenantId, activityType, data);
      };
      const request = {
        tenantId: principal.tenantId,
        identifierType,
        identifier: query.userIdentifier,
        scope,
        appId: query.appId ?? '',
      };
      await removePerson(deps, request, emit);
      res.json({ status: 'success' });
    }),
  );
}
