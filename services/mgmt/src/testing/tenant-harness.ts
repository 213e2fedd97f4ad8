import type { AdminRole } from '../admins/model';
import { type MgmtHarness, startMgmt } from './mgmt-harness';

/** mgmt with one tenant, and personal API tokens of administrators of it by name. */
export type TenantHarness<T extends string> = MgmtHarness & { tenantId: string } & Record<T, string>;

/**
 * startMgmt, the tenant `name` through the admin API, then for each of `tokens` (name → [email, role]) an
 * administrator and a personal API token of theirs (adminToken), in order: the harness carries the tenant's id
 * and each token under its name (`{ owner: ['owner@acme.test', 'owner'] }` gives `h.owner`).
 */
export async function startTenantHarness<T extends string = never>(
  name: string,
  tokens: Record<T, readonly [email: string, role: AdminRole]> = {} as Record<T, never>,
): Promise<TenantHarness<T>> {
  const h = await startMgmt();
  const tenantId = await h.createTenant(name);
  const made = {} as Record<T, string>;
  for (const [key, [email, role]] of Object.entries(tokens) as Array<[T, readonly [string, AdminRole]]>) {
    made[key] = await h.adminToken(tenantId, email, role);
  }
  return Object.assign(h, { tenantId }, made);
}
