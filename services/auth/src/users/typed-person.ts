import type { UserStore } from './users.repository';

/**
 * The person of the tenant a typed (normalised) address names, before it is proven: their user id, or
 * undefined for an unknown address and for a person who never joined the tenant (whose id is not the
 * tenant's to see). For the flow's activity record only; what the person sees never depends on it.
 */
export async function typedPerson(
  store: UserStore,
  tenantId: string,
  email: string,
): Promise<string | undefined> {
  const user = await store.users.findByEmail(email);
  if (!user) return undefined;
  const memberships = await store.memberships.listForUser(tenantId, user.userId);
  return memberships.length ? user.userId : undefined;
}
