import type { MembershipRepository } from './users.repository';

export type UserIdentifier = { type: 'user_id' | 'alias'; value: string };

/** An alias carried by several users of the tenant (aliases are unique per application, not per tenant). */
export class AmbiguousAliasError extends Error {
  constructor() {
    super('the alias belongs to several users of the tenant: name the application');
    this.name = 'AmbiguousAliasError';
  }
}

/**
 * The user a tenant knows by this identifier: a user id counts only if the user has a membership in the
 * tenant (a user of another tenant is not found, never revealed); an alias is looked up in the tenant's
 * memberships, within one application when appId is given.
 */
export async function resolveUserId(
  memberships: MembershipRepository,
  tenantId: string,
  identifier: UserIdentifier,
  appId?: string,
): Promise<string | undefined> {
  if (identifier.type === 'user_id') {
    const found = await memberships.listForUser(tenantId, identifier.value);
    return found.length ? identifier.value : undefined;
  }
  const users = new Set(
    (await memberships.findByAlias(tenantId, identifier.value, appId)).map((m) => m.userId),
  );
  if (users.size > 1) throw new AmbiguousAliasError();
  return [...users][0];
}
