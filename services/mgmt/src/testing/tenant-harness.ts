import type { AdminRole } from '../admins/model';
import { type MgmtHarness, startMgmt } from './mgmt-harness';

/** mgmt with one tenant, and personal API tokens of administrators of it by name. */
export type TenantHarness<T extends string> = MgmtHarness & { tenantId: string } & Record<T, string>;

/**
 * startMgmt, the tenant `name` through the admin API, then for each of `tokens` (name → role) an administrator
 * `<name>@<tenant name in lower case>.test` and a personal API token of theirs (adminToken), in order: the
 * harness carries the tenant's id and each token under its name (`startTenantHarness('Acme', { owner: 'owner' })`
 * gives `h.owner`, a token of owner@acme.test).
 */
export async function startTenantHarness<T extends string = never>(
  name: string,
  tokens: Record<T, AdminRole> = {} as Record<T, never>,
): Promise<TenantHarness<T>> {
  const h = await startMgmt();
  const tenantId = await h.createTenant(name);
  const made = {} as Record<T, string>;
  for (const [key, role] of Object.entries(tokens) as Array<[T, AdminRole]>) {
    made[key] = await h.adminToken(tenantId, `${key}@${name.toLowerCase()}.test`, role);
  }
  return Object.assign(h, { tenantId }, made);
}
