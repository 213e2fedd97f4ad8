import { type Clock, GrpcError, GrpcStatus, systemClock } from '@sesame/platform';
import type { users } from '@sesame/proto';
import type { LocationLookup } from '../devices/location';
import { UNKNOWN } from '../devices/user-agent';
import { type BackchannelDeps, notifyBackchannel } from '../journeys/logout/end-session';
import type { BrowserSession, SessionManager } from '../session/browser-session';
import type { UserStore } from '../users/users.repository';

/**
 * Support's actions on a person's sign-ins in one tenant (issue 38): list their signed-in browser sessions,
 * end them all (sign out everywhere, with the apps' back-channel logouts), disable or enable the person.
 * Each answers NOT_FOUND for a user who is not a person of the tenant (no membership): another tenant's
 * person and an unknown id alike.
 */
export interface UserSessionsDeps {
  users: UserStore;
  sessions: Pick<SessionManager, 'listForUser' | 'endStored'>;
  location?: Pick<LocationLookup, 'lookup'>;
  backchannel: BackchannelDeps;
  clock?: Clock;
}

const MAX_ID = 512;
const invalid = (message: string) => new GrpcError(GrpcStatus.INVALID_ARGUMENT, message);

async function personOfTenant(deps: UserSessionsDeps, request: { tenantId: string; userId: string }) {
  if (!request.tenantId || request.tenantId.length > MAX_ID) throw invalid('tenant_id is required');
  if (!request.userId || request.userId.length > MAX_ID) throw invalid('user_id is required');
  const memberships = await deps.users.memberships.listForUser(request.tenantId, request.userId);
  if (memberships.length === 0) throw new GrpcError(GrpcStatus.NOT_FOUND, 'user not found');
  return { tenantId: request.tenantId, userId: request.userId };
}

const known = (v: string | undefined) => (v && v !== UNKNOWN ? v : '');

/** "Berlin, DE": the city and country the location database gives the address, when it knows them. */
function placeOf(deps: UserSessionsDeps, ip: string | undefined): string {
  const found = ip ? deps.location?.lookup(ip) : undefined;
  return found ? [found.city, found.country].filter(Boolean).join(', ') : '';
}

function sessionMessage(deps: UserSessionsDeps, session: BrowserSession): users.UserSession {
  const device = session.seen?.device;
  return {
    sid: session.signedIn?.sid ?? '',
    deviceName: known(device?.deviceName),
    osType: known(device?.osType),
    osVersion: known(device?.osVersion),
    browserType: known(device?.browserType),
    browserVersion: known(device?.browserVersion),
    place: placeOf(deps, session.seen?.clientIp),
    startedAt: session.seen?.startedAt ?? session.createdAt ?? 0,
    lastSeenAt: session.seen?.lastSeenAt ?? session.createdAt ?? 0,
    clientIds: session.signedIn?.clients ?? [],
  };
}

/** ListUserSessions: the person's live signed-in sessions in the tenant, newest sign-in first. */
export function listUserSessions(deps: UserSessionsDeps) {
  return async (request: users.ListUserSessionsRequest): Promise<users.ListUserSessionsResponse> => {
    const { tenantId, userId } = await personOfTenant(deps, request);
    const sessions = await deps.sessions.listForUser(tenantId, userId);
    return { sessions: sessions.map((s) => sessionMessage(deps, s)) };
  };
}

/**
 * SignOutEverywhere: ends every signed-in session of the person in the tenant, all at once, and tells the
 * apps each took part in over the back channel (as an RP-initiated logout does: journeys/logout). A session a
 * concurrent logout ended first is not notified twice. The refresh tokens are mgmt's next call (token's
 * Grants.RevokeUserGrants).
 */
export function signOutEverywhere(deps: UserSessionsDeps) {
  return async (request: users.SignOutEverywhereRequest): Promise<users.SignOutEverywhereResponse> => {
    const { tenantId, userId } = await personOfTenant(deps, request);
    const sessions = await deps.sessions.listForUser(tenantId, userId);
    const results = await Promise.all(
      sessions.map(async (session) => {
        if (!session.signedIn || !(await deps.sessions.endStored(session))) return undefined;
        return notifyBackchannel(deps.backchannel, session.signedIn);
      }),
    );
    const ended = results.filter((r) => r !== undefined);
    return { endedSessions: ended.length, notifiedClientIds: [...new Set(ended.flat())] };
  };
}

/**
 * SetUserDisabled: disables the person in the tenant (every sign-in to its apps is refused from now on:
 * signin/prove.ts) or enables them again. Their sessions and tokens are ended by mgmt's next calls.
 */
export function setUserDisabled(deps: UserSessionsDeps) {
  return async (request: users.SetUserDisabledRequest): Promise<users.SetUserDisabledResponse> => {
    const { tenantId, userId } = await personOfTenant(deps, request);
    const changedAt = (deps.clock ?? systemClock).now();
    const found = await deps.users.users.setDisabled(
      userId,
      tenantId,
      request.disabled ? changedAt : undefined,
    );
    if (!found) throw new GrpcError(GrpcStatus.NOT_FOUND, 'user not found');
    return { changedAt };
  };
}

/** The three methods, for the Users service (service.ts). */
export function userSessionsGrpc(deps: UserSessionsDeps) {
  return {
    listUserSessions: listUserSessions(deps),
    signOutEverywhere: signOutEverywhere(deps),
    setUserDisabled: setUserDisabled(deps),
  };
}
