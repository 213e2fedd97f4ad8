import type { MembershipRepository } from '../users/users.repository';

export interface RegistrationBinding {
  tenantId: string;
  appId: string;
  userId: string;
  /** The passkey created during registration, when one was. */
  authenticatorId?: string;
  deviceId?: string;
  alias?: string;
  /** Scopes the invitation shares with the app (send-activation's scopes): no consent asked for them later. */
  scopes: string[];
  at: number;
}

/**
 * Binds a registered user to the app, as if session feedback had confirmed the login (send-activation's
 * confirmedUser): the membership becomes confirmed and carries the alias. firstConfirmedLoginAt stays unset:
 * registration is not a login, and capp_first_confirmed_login belongs to the login after a confirmation.
 * Returns false when the alias became another user's meanwhile (the membership is then confirmed without it).
 */
export async function bindRegistration(
  memberships: MembershipRepository,
  b: RegistrationBinding,
): Promise<boolean> {
  // merge: call confirmMembership (users/confirm-login.ts) here instead, mapping AliasTakenError to false.
  const holders = b.alias ? await memberships.findByAlias(b.tenantId, b.alias, b.appId) : [];
  const aliasFree = holders.every((m) => m.userId === b.userId);
  const current = await memberships.get(b.tenantId, b.appId, b.userId);
  await memberships.save({
    ...current,
    tenantId: b.tenantId,
    appId: b.appId,
    userId: b.userId,
    acrValues: current?.acrValues ?? [],
    // Registration is the person's first meeting with the app through us; a later login keeps this moment.
    firstLoginAt: current?.firstLoginAt ?? b.at,
    lastLoginAt: current?.lastLoginAt ?? b.at,
    consentedScopes: [...new Set([...(current?.consentedScopes ?? []), ...b.scopes])],
    confirmed: true,
    ...(b.alias && aliasFree ? { alias: b.alias } : {}),
  });
  return aliasFree;
}
