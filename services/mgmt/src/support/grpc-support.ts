import { GrpcStatus, MgmtError, isGrpcStatus } from '@sesame/platform';
import { type activitylogs, users } from '@sesame/proto';
import { type SupportFlowsPeer, type SupportUsersPeer, peerUnavailable } from '../peers';
import { activityLogJson } from './activity-log-json';
import type {
  FlowFilter,
  FlowRecord,
  SupportDevice,
  SupportPort,
  SupportSession,
  SupportUserDetail,
  UserMatch,
} from './port';

/** Longer than any email, user id or alias: refused before auth is asked (auth refuses it too). */
export const MAX_SUPPORT_QUERY = 512;
export const MAX_FLOW_PAGE = 200;

export interface SupportPortDeps {
  users: SupportUsersPeer;
  flows: SupportFlowsPeer;
  /** The app's name in mgmt's directory; undefined when the tenant has no such app (any more). */
  appName(tenantId: string, appId: string): Promise<string | undefined>;
  /** The name of the tenant's app with this client_id; undefined when the tenant has no such client. */
  clientName?(tenantId: string, clientId: string): Promise<string | undefined>;
}

/** "Chrome 156" (the major version only), "Linux": the parts the user agent said, in plain words. */
const words = (...parts: string[]) => parts.filter(Boolean).join(' ');

const matchOf: Record<number, UserMatch> = {
  [users.UserMatch.USER_MATCH_EMAIL]: 'email',
  [users.UserMatch.USER_MATCH_USER_ID]: 'user_id',
  [users.UserMatch.USER_MATCH_ALIAS]: 'alias',
  [users.UserMatch.USER_MATCH_EMAIL_PREFIX]: 'email_prefix',
};

const invalid = (message: string) => new MgmtError(400, 'invalid_request', message);

/** A peer's answer as the caller's error: its INVALID_ARGUMENT a 400 with its reason, an outage a 503. */
function peerError(err: unknown, peer: string): unknown {
  if (isGrpcStatus(err, GrpcStatus.INVALID_ARGUMENT))
    return invalid((err as { details?: string }).details ?? 'invalid request');
  return peerUnavailable(err, peer);
}

const isNotFound = (err: unknown) => isGrpcStatus(err, GrpcStatus.NOT_FOUND);

/** The port's record: the spec's JSON of the record (the HTTP endpoint's members), plus the email. */
export function flowRecordOf(message: activitylogs.ActivityLogRecord): FlowRecord {
  const record = activityLogJson(message) as unknown as FlowRecord;
  if (message.email) record.email = message.email; // set, not spread into a copy (see activityLogJson)
  if (message.attemptedEmail) record.attemptedEmail = message.attemptedEmail;
  if (message.traceId) record.traceId = message.traceId;
  return record;
}

function filterMessage(f: FlowFilter): activitylogs.FlowFilter {
  const out: activitylogs.FlowFilter = {};
  for (const field of [
    'appId',
    'userId',
    'status',
    'flowType',
    'authMethodType',
    'attemptedEmail',
  ] as const) {
    const v = f[field];
    if (v === undefined) continue;
    if (typeof v !== 'string' || v.length === 0 || v.length > 200)
      throw invalid(`${field} must be 1..200 characters`);
    out[field] = v;
  }
  for (const bound of ['from', 'to'] as const) {
    const v = f[bound];
    if (v === undefined) continue;
    if (!Number.isSafeInteger(v) || v < 0) throw invalid(`${bound} must be epoch milliseconds`);
    out[bound] = v;
  }
  return out;
}

/**
 * The support port over auth (people, devices, memberships) and activity-log (flows), the app names from
 * mgmt's directory. Every call names its tenant to the peer, which answers for that tenant only.
 */
export function createSupportPort(deps: SupportPortDeps): SupportPort {
  const names = async (tenantId: string, appIds: string[]) => {
    const unique = [...new Set(appIds)];
    const found = await Promise.all(unique.map((appId) => deps.appName(tenantId, appId)));
    return new Map(unique.map((appId, i) => [appId, found[i] ?? appId]));
  };

  return {
    async findUsers(tenantId, query, appId) {
      if (typeof query !== 'string' || !query.trim()) throw invalid('the search is empty');
      if (query.length > MAX_SUPPORT_QUERY)
        throw invalid(`the search is too long (at most ${MAX_SUPPORT_QUERY} characters)`);
      const answer = await deps.users
        .findUsers({ tenantId, query, appId: appId ?? '' })
        .catch((err: unknown) => {
          throw peerError(err, 'the auth service');
        });
      return answer.users.map((u) => ({
        userId: u.userId,
        email: u.email,
        matchedBy: matchOf[u.matchedBy] ?? 'user_id',
      }));
    },

    async userDetail(tenantId, userId): Promise<SupportUserDetail | undefined> {
      if (typeof userId !== 'string' || !userId || userId.length > MAX_SUPPORT_QUERY) return undefined;
      let detail: users.GetUserDetailResponse;
      try {
        detail = await deps.users.getUserDetail({ tenantId, userId });
      } catch (err) {
        if (isNotFound(err)) return undefined;
        throw peerError(err, 'the auth service');
      }
      const appNames = await names(
        tenantId,
        detail.memberships.map((m) => m.appId),
      );
      return {
        userId: detail.userId,
        email: detail.email,
        devices: detail.devices.map(
          (d): SupportDevice => ({
            deviceId: d.deviceId,
            name: d.name,
            os: d.os,
            browser: d.browser,
            firstSeen: d.firstSeen,
            lastSeen: d.lastSeen,
            passkeys: d.passkeys,
            blocked: d.blocked,
          }),
        ),
        memberships: detail.memberships.map((m) => ({
          appId: m.appId,
          appName: appNames.get(m.appId) ?? m.appId,
          ...(m.alias ? { alias: m.alias } : {}),
          ...(m.firstLogin ? { firstLogin: m.firstLogin } : {}),
          ...(m.lastLogin ? { lastLogin: m.lastLogin } : {}),
          confirmed: m.confirmed,
        })),
        ...(detail.disabledAt ? { disabledAt: detail.disabledAt } : {}),
        ...(detail.createdAt ? { createdAt: detail.createdAt } : {}),
        ...(detail.phoneMasked ? { phoneMasked: detail.phoneMasked } : {}),
        passkeys: (detail.passkeys ?? []).map((k) => ({
          credentialId: k.credentialId,
          ...(k.model ? { model: k.model } : {}),
          createdAt: k.createdAt,
          ...(k.lastUsedAt ? { lastUsedAt: k.lastUsedAt } : {}),
          deviceId: k.deviceId,
          deviceName: k.deviceName,
          suspected: k.status === 'suspected',
        })),
      };
    },

    async userSessions(tenantId, userId): Promise<SupportSession[] | undefined> {
      if (typeof userId !== 'string' || !userId || userId.length > MAX_SUPPORT_QUERY) return undefined;
      let answer: users.ListUserSessionsResponse;
      try {
        answer = await deps.users.listUserSessions({ tenantId, userId });
      } catch (err) {
        if (isNotFound(err)) return undefined;
        throw peerError(err, 'the auth service');
      }
      const clientIds = [...new Set(answer.sessions.flatMap((s) => s.clientIds))];
      const found = await Promise.all(clientIds.map((c) => deps.clientName?.(tenantId, c)));
      const nameOf = new Map(clientIds.map((c, i) => [c, found[i] ?? c]));
      return answer.sessions.map((s) => ({
        sid: s.sid,
        deviceName: s.deviceName,
        os: words(s.osType, s.osVersion),
        browser: words(s.browserType, s.browserVersion.split('.')[0] ?? ''),
        place: s.place,
        startedAt: s.startedAt,
        lastSeenAt: s.lastSeenAt,
        apps: s.clientIds.map((clientId) => ({ clientId, name: nameOf.get(clientId) ?? clientId })),
      }));
    },

    async listFlows(tenantId, filter, limit, cursor) {
      if (!Number.isInteger(limit) || limit < 1 || limit > MAX_FLOW_PAGE)
        throw invalid(`limit must be 1..${MAX_FLOW_PAGE}`);
      if (cursor !== undefined && (typeof cursor !== 'string' || cursor.length > 400))
        throw invalid('the cursor is not valid');
      const page = await deps.flows
        .listFlows({ tenantId, filter: filterMessage(filter), limit, cursor: cursor ?? '' })
        .catch((err: unknown) => {
          throw peerError(err, 'the activity log service');
        });
      return {
        flows: page.flows.map(flowRecordOf),
        ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
      };
    },

    async getFlow(tenantId, flowId) {
      if (typeof flowId !== 'string' || !flowId || flowId.length > 200) return undefined;
      try {
        const { flow } = await deps.flows.getFlow({ tenantId, flowId });
        return flow ? flowRecordOf(flow) : undefined;
      } catch (err) {
        if (isNotFound(err)) return undefined;
        throw peerError(err, 'the activity log service');
      }
    },

    async attemptedEmails(tenantId, prefix, limit) {
      const { emails } = await deps.flows
        .listAttemptedEmails({ tenantId, prefix, limit })
        .catch((err: unknown) => {
          throw peerError(err, 'the activity log service');
        });
      return emails;
    },

    async countFlows(tenantId, filter) {
      const { count } = await deps.flows
        .countFlows({ tenantId, filter: filterMessage(filter) })
        .catch((err: unknown) => {
          throw peerError(err, 'the activity log service');
        });
      return count;
    },

    async eraseFlows(tenantId, target) {
      if (target.userId === undefined && target.attemptedEmail === undefined)
        throw invalid('a user id or an address is required');
      const { erased } = await deps.flows.eraseFlows({ tenantId, ...target }).catch((err: unknown) => {
        throw peerError(err, 'the activity log service');
      });
      return erased;
    },

    async listPeople(tenantId, limit, cursor) {
      if (!Number.isInteger(limit) || limit < 1 || limit > MAX_FLOW_PAGE)
        throw invalid(`limit must be 1..${MAX_FLOW_PAGE}`);
      if (cursor !== undefined && (typeof cursor !== 'string' || cursor.length > 400))
        throw invalid('the cursor is not valid');
      const page = await deps.users
        .listUsers({ tenantId, limit, cursor: cursor ?? '' })
        .catch((err: unknown) => {
          throw peerError(err, 'the auth service');
        });
      return {
        people: page.users.map((u) => ({
          userId: u.userId,
          email: u.email,
          createdAt: u.createdAt,
          ...(u.lastSignIn ? { lastSignIn: u.lastSignIn } : {}),
          disabled: u.disabledAt > 0,
          passkeys: u.passkeys,
        })),
        ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
      };
    },

    async removePasskey(tenantId, userId, credentialId) {
      try {
        await deps.users.removePasskey({ tenantId, userId, credentialId });
        return true;
      } catch (err) {
        if (isNotFound(err)) return false;
        throw peerError(err, 'the auth service');
      }
    },

    async removePhoneNumber(tenantId, userId) {
      try {
        return (await deps.users.removePhoneNumber({ tenantId, userId })).removed;
      } catch (err) {
        if (isNotFound(err)) return undefined;
        throw peerError(err, 'the auth service');
      }
    },

    exportFlows(tenantId, filter) {
      const request = { tenantId, filter: filterMessage(filter) };
      return {
        async *[Symbol.asyncIterator]() {
          try {
            for await (const message of deps.flows.exportFlows(request)) {
              if (message.flows.length) yield message.flows.map(flowRecordOf);
            }
          } catch (err) {
            throw peerError(err, 'the activity log service');
          }
        },
      };
    },
  };
}
