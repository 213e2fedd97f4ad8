import { passkeyAuthenticator } from '@sesame/oauth';
import { GrpcError, GrpcStatus } from '@sesame/platform';
import { users } from '@sesame/proto';
import { UNKNOWN } from '../devices/user-agent';
import type { PasskeyRepository } from '../passkeys/passkeys.repository';
import { type UserDevice, disabledAt } from '../users/model';
import type { UserStore } from '../users/users.repository';
import { membershipMessage } from './membership-message';
import { maskPhone } from './support-people';

const invalid = (message: string) => new GrpcError(GrpcStatus.INVALID_ARGUMENT, message);
/** A search string longer than any email (254), user id or alias is no person's: refused, never searched. */
export const MAX_QUERY = 512;
const MAX_ALIAS_MATCHES = 50;
const MAX_ID = 512;
/** The start of an address is searched from this many characters on (issue 38). */
export const MIN_PREFIX = 3;
/** People whose address starts with the query read at most (any tenant's), and shown at most (this tenant's). */
const PREFIX_READ = 200;
const MAX_PREFIX_MATCHES = 50;

const tenantOf = (tenantId: string) => {
  if (!tenantId || tenantId.length > MAX_ID) throw invalid('tenant_id is required');
  return tenantId;
};

/** An address as auth stores it: trimmed and lower-cased (steps/email-code/routes.ts). */
export const normaliseEmail = (typed: string) => typed.trim().toLowerCase();

/**
 * FindUsers: the people of the tenant the query names, as an exact email (case-insensitive), a user id, or
 * an alias; each person once, with the first reading that found them. The query is matched as a whole
 * string (never a pattern or an operator) and a person without a membership in the tenant is not found.
 */
export function findUsers(store: UserStore) {
  return async (request: users.FindUsersRequest): Promise<users.FindUsersResponse> => {
    const tenantId = tenantOf(request.tenantId);
    const query = request.query.trim();
    if (!query) throw invalid('query is required');
    if (request.query.length > MAX_QUERY)
      throw invalid(`query is too long (at most ${MAX_QUERY} characters)`);
    if (request.appId.length > MAX_ID) throw invalid('app_id is too long');
    // Three reads at most (the Mongo-wire server here scans a collection per query): the people whose address
    // starts with the query (from MIN_PREFIX characters on; an exact address sorts first among them, so it is
    // always read), then every membership in the tenant of those people, of the query as a user id and of the
    // query as an alias, then the emails of the people found otherwise than by their address.
    const normal = normaliseEmail(query);
    const starting =
      query.length >= MIN_PREFIX
        ? await store.users.findByEmailPrefix(normal, PREFIX_READ)
        : query.includes('@')
          ? [await store.users.findByEmail(normal)].filter((u) => u !== undefined)
          : [];
    const byEmail = starting.find((u) => u.email === normal);
    const appId = request.appId || undefined;
    const candidates = [...starting.map((u) => u.userId), query];
    const memberships = await store.memberships.findByUsersOrAlias(tenantId, candidates, query, appId);
    const members = new Set(memberships.map((m) => m.userId));

    const found = new Map<string, users.UserMatch>();
    if (byEmail && members.has(byEmail.userId)) found.set(byEmail.userId, users.UserMatch.USER_MATCH_EMAIL);
    if (!found.has(query) && members.has(query)) found.set(query, users.UserMatch.USER_MATCH_USER_ID);
    const aliased = memberships.filter((m) => m.alias === query && (!appId || m.appId === appId));
    for (const m of aliased.slice(0, MAX_ALIAS_MATCHES)) {
      if (!found.has(m.userId)) found.set(m.userId, users.UserMatch.USER_MATCH_ALIAS);
    }
    // The start of an address (issue 38), in address order: this tenant's people among those read.
    const emails = new Map<string, string | undefined>(starting.map((u) => [u.userId, u.email]));
    let prefixed = 0;
    for (const u of starting) {
      if (prefixed === MAX_PREFIX_MATCHES) break;
      if (!members.has(u.userId) || found.has(u.userId)) continue;
      found.set(u.userId, users.UserMatch.USER_MATCH_EMAIL_PREFIX);
      prefixed++;
    }
    const others = [...found.keys()].filter((userId) => !emails.has(userId));
    const people = others.length ? await store.users.getMany(others) : [];
    for (const u of people) emails.set(u.userId, u.email);
    const out = [...found].map(
      ([userId, matchedBy]): users.FoundUser => ({
        userId,
        email: emails.get(userId) ?? '',
        matchedBy,
      }),
    );
    return { users: out };
  };
}

const join = (...parts: string[]) => parts.filter((p) => p && p !== UNKNOWN).join(' ');

/** "Chrome on macOS" when the device named itself nothing better. */
function deviceText(device: UserDevice | undefined) {
  const f = device?.facts;
  const os = f ? join(f.osType, f.osVersion) : '';
  const browser = f ? join(f.browserType, f.browserVersion) : '';
  const named = f && f.deviceName !== UNKNOWN ? f.deviceName : '';
  const name =
    named || [f && join(f.browserType), f && join(f.osType)].filter(Boolean).join(' on ') || 'Unknown device';
  return { name, os, browser };
}

/**
 * GetUserDetail: the person's memberships in the tenant and the devices they used with its apps (first and
 * last login from each, the passkeys created on it, whether the tenant blocked it). NOT_FOUND when the user
 * has no membership in the tenant: another tenant's person and an unknown id answer alike.
 */
export function getUserDetail(store: UserStore, passkeys: PasskeyRepository) {
  return async (request: users.GetUserDetailRequest): Promise<users.GetUserDetailResponse> => {
    const tenantId = tenantOf(request.tenantId);
    if (!request.userId || request.userId.length > MAX_ID) throw invalid('user_id is required');
    const { userId } = request;
    // The membership first: nothing more of a person outside the tenant is read. Reading all five at once
    // measured no faster on the Mongo-wire server here (its concurrent scans share the same cores).
    const memberships = await store.memberships.listForUser(tenantId, userId);
    if (memberships.length === 0) throw new GrpcError(GrpcStatus.NOT_FOUND, 'user not found');
    const [user, devices, keys, access] = await Promise.all([
      store.users.get(userId),
      store.devices.listForUser(userId),
      passkeys.listForUser(userId),
      store.deviceAccess.listForUser(tenantId, userId),
    ]);
    const seen = new Map<string, { first: number; last: number }>();
    for (const m of memberships) {
      for (const [deviceId, logins] of Object.entries(m.deviceLogins ?? {})) {
        const s = seen.get(deviceId);
        seen.set(deviceId, {
          first: Math.min(s?.first ?? Number.POSITIVE_INFINITY, logins.firstLoginAt),
          last: Math.max(s?.last ?? 0, logins.lastLoginAt),
        });
      }
    }
    // A device the tenant blocked stays listed (to be unblocked) even with no login recorded.
    for (const a of access) if (!seen.has(a.deviceId)) seen.set(a.deviceId, { first: 0, last: 0 });
    const blocked = new Set(access.filter((a) => !a.allowAccess).map((a) => a.deviceId));
    const supportDevices = [...seen].map(([deviceId, { first, last }]): users.SupportDevice => {
      const device = devices.find((d) => d.deviceId === deviceId);
      return {
        deviceId,
        ...deviceText(device),
        firstSeen: first || device?.registeredAt || 0,
        lastSeen: last || device?.lastSeenAt || 0,
        passkeys: keys.filter((k) => k.deviceId === deviceId).length,
        blocked: blocked.has(deviceId),
      };
    });
    supportDevices.sort((a, b) => b.lastSeen - a.lastSeen || (a.deviceId < b.deviceId ? -1 : 1));
    const deviceName = (deviceId: string) => deviceText(devices.find((d) => d.deviceId === deviceId)).name;
    return {
      userId,
      email: user?.email ?? '',
      devices: supportDevices,
      memberships: memberships.map(membershipMessage),
      disabledAt: (user && disabledAt(user, tenantId)) ?? 0,
      createdAt: user?.createdAt ?? 0,
      phoneMasked: maskPhone(user?.phoneNumber),
      passkeys: keys.map(
        (k): users.SupportPasskey => ({
          credentialId: k.credentialId,
          model: passkeyAuthenticator(k.aaguid) ?? '',
          aaguid: k.aaguid,
          createdAt: k.createdAt,
          lastUsedAt: k.lastUsedAt ?? 0,
          deviceId: k.deviceId,
          deviceName: deviceName(k.deviceId),
          backedUp: k.backedUp,
          status: k.status,
        }),
      ),
    };
  };
}
