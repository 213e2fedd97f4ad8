import type { AppMembership } from '../users';

export interface CompletedLogin {
  tenantId: string;
  appId: string;
  userId: string;
  /** The scopes the person now shares with the app (consent is remembered per user and app). */
  scopes: string[];
  /** The device that proved who the person is. */
  deviceId: string;
  /** When the login happened (the proof's moment), and now. */
  loginAt: number;
  now: number;
}

/**
 * The membership after a completed sign-in, from the one stored now (`current`, read again by
 * MembershipRepository.update when another writer got there first) and the one the login's claims were computed
 * from (`seen`). What someone else changed in between (a session feedback confirming the login, binding its
 * passkey, setting the alias) stays; capp_first_confirmed_login is owed to one login, so it is cleared only when
 * this login's claims carried it.
 */
export function membershipAfterLogin(
  current: AppMembership | undefined,
  seen: AppMembership | undefined,
  login: CompletedLogin,
): AppMembership {
  const { tenantId, appId, userId, deviceId, loginAt, now } = login;
  return {
    tenantId,
    appId,
    userId,
    acrValues: current?.acrValues ?? [],
    confirmed: current?.confirmed ?? false,
    ...current,
    // The same first-login moment the claims said (capp_first_login).
    firstLoginAt: current?.firstLoginAt ?? seen?.firstLoginAt ?? loginAt,
    lastLoginAt: now,
    firstConfirmedLoginPending: seen?.firstConfirmedLoginPending
      ? undefined
      : current?.firstConfirmedLoginPending,
    consentedScopes: [...new Set([...(current?.consentedScopes ?? []), ...login.scopes])],
    deviceLogins: {
      ...current?.deviceLogins,
      [deviceId]: {
        firstLoginAt: current?.deviceLogins?.[deviceId]?.firstLoginAt ?? loginAt,
        lastLoginAt: now,
      },
    },
  };
}
