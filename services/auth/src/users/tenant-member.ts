import type { User } from './model';
import type { UserStore } from './users.repository';

/**
 * The user an address names, as this tenant may see them: only when they are a member of the tenant (a
 * membership of any of its applications: they signed in there, or a registration link made them one).
 * Users are global, but an address known only to other tenants answers exactly as an unknown address
 * (issue 26, finding 7): the identify step, passkey sign-in options and /authorize_ciba read it here.
 * The membership lookup runs for unknown addresses too, so both take the same queries.
 */
export async function findTenantMember(
  store: Pick<UserStore, 'users' | 'memberships'>,
  tenantId: string,
  email: string,
): Promise<User | undefined> {
  const user = await store.users.findByEmail(email);
  const memberships = await store.memberships.listForUser(tenantId, user?.userId ?? '');
  return user && memberships.length > 0 ? user : undefined;
}
