import type { AppMembership } from './model';
import type { MembershipRepository } from './users.repository';

/** The alias is held by another user of the application (aliases are unique per application). */
export class AliasTakenError extends Error {
  constructor(readonly alias: string) {
    super('the alias belongs to another user of this application');
    this.name = 'AliasTakenError';
  }
}

/** A login to confirm: whose, for which application, made with what, and when. */
export interface LoginToConfirm {
  tenantId: string;
  appId: string;
  userId: string;
  /** The passkey credential id (base64url) when a passkey made the login: it becomes bound to the app. */
  authenticatorId?: string;
  /** The device of the login: it becomes bound to the app (what an email code or link login is bound by). */
  deviceId?: string;
  /** Sets (or replaces) the user's alias for the application (svc_alias, DELETE users by alias, bound_to). */
  alias?: string;
  /** When the confirmed login happened, epoch ms (capp_first_confirmed_login, if it is the first). */
  at: number;
}

const withItem = (list: string[] | undefined, item: string | undefined) =>
  item === undefined || list?.includes(item) ? list : [...(list ?? []), item];

/**
 * Confirms a login of a user to an application (/session-feedback, and a registration link with confirmedUser):
 * the membership becomes confirmed, the login's authenticator (passkey credential and/or device) is bound to
 * the application, the alias is set, and the next login (only) carries capp_first_confirmed_login. Repeating
 * it is harmless. Rejects with AliasTakenError, changing nothing, when another user of the app has the alias.
 */
export async function confirmMembership(
  memberships: MembershipRepository,
  login: LoginToConfirm,
): Promise<AppMembership> {
  const { tenantId, appId, userId, alias, at } = login;
  const current = await memberships.get(tenantId, appId, userId);
  const newAlias = alias !== undefined && alias !== current?.alias;
  if (newAlias) {
    // Memberships saved with an alias by other paths hold it too, not only claims made here.
    const holders = await memberships.findByAlias(tenantId, alias, appId);
    if (holders.some((m) => m.userId !== userId)) throw new AliasTakenError(alias);
    if (!(await memberships.claimAlias(tenantId, appId, alias, userId))) throw new AliasTakenError(alias);
  }
  // Built from the membership as it is when written (a sign-in may complete meanwhile): never lost.
  const next = await memberships.update(tenantId, appId, userId, (now) => ({
    acrValues: [],
    // No membership yet (a registration link before any sign-in): this confirmed login is the first login.
    firstLoginAt: at,
    lastLoginAt: at,
    ...now,
    tenantId,
    appId,
    userId,
    confirmed: true,
    alias: alias ?? now?.alias,
    firstConfirmedLoginAt: now?.firstConfirmedLoginAt ?? at,
    firstConfirmedLoginPending:
      now?.firstConfirmedLoginAt === undefined ? true : now.firstConfirmedLoginPending,
    boundCredentials: withItem(now?.boundCredentials, login.authenticatorId),
    boundDevices: withItem(now?.boundDevices, login.deviceId),
  }));
  if (newAlias && current?.alias !== undefined) {
    await memberships.releaseAlias(tenantId, appId, current.alias, userId);
  }
  return next;
}

/** The authenticator of a login: its passkey, or, for a login made without one, its device. */
export interface LoginAuthenticator {
  authenticatorId?: string;
  deviceId: string;
}

/**
 * Is the login's authenticator bound to the application (acr ts.svc.app_bound_cred, bound_to)? A passkey login
 * counts by its credential, any other login by its device: a device bound by an email-code login does not
 * vouch for a passkey that was never confirmed, and the reverse.
 */
export function isBoundAuthenticator(
  membership: AppMembership | undefined,
  login: LoginAuthenticator,
): boolean {
  if (!membership?.confirmed) return false;
  return login.authenticatorId
    ? (membership.boundCredentials ?? []).includes(login.authenticatorId)
    : (membership.boundDevices ?? []).includes(login.deviceId);
}
