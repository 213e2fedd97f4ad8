import { AliasTakenError, type LoginToConfirm, confirmMembership } from '../../users/confirm-login';
import type { AppMembership } from '../../users/model';
import type { MembershipRepository } from '../../users/users.repository';

/** A registration's login to confirm (its passkey or device, the invitation's alias), and what it shares. */
export interface RegistrationBinding extends LoginToConfirm {
  /** Scopes the invitation shares with the app (send-activation's scopes): no consent asked for them later. */
  scopes: string[];
}

/**
 * Binds a registered user to the app, as if session feedback had confirmed the login (send-activation's
 * confirmedUser): confirmMembership binds the registration's passkey (or device) and sets the alias, so the
 * next login carries acr ts.svc.app_bound_cred and, once, capp_first_confirmed_login; the invitation's scopes
 * count as consented. Returns false when the alias became another user's meanwhile (the membership is then
 * confirmed without it).
 */
export async function bindRegistration(
  memberships: MembershipRepository,
  b: RegistrationBinding,
): Promise<boolean> {
  const login = {
    tenantId: b.tenantId,
    appId: b.appId,
    userId: b.userId,
    authenticatorId: b.authenticatorId,
    deviceId: b.deviceId,
    at: b.at,
  };
  let aliasSet = true;
  let membership: AppMembership;
  try {
    membership = await confirmMembership(memberships, { ...login, alias: b.alias });
  } catch (err) {
    if (!(err instanceof AliasTakenError)) throw err;
    aliasSet = false;
    membership = await confirmMembership(memberships, login);
  }
  await memberships.update(membership.tenantId, membership.appId, membership.userId, (now) => ({
    ...(now ?? membership),
    consentedScopes: [...new Set([...(now?.consentedScopes ?? []), ...b.scopes])],
  }));
  return aliasSet;
}
