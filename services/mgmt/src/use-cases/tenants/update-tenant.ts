import { MgmtError } from '@sesame/platform';
import type { Tenant } from '../../directory/model';
import { type Emit, adminActivity } from '../../events/admin-events';
import { settingsDiff } from '../../events/diff';
import type { AdminRouteDeps } from '../deps';
import { createTenantBody } from './tenant-schemas';

/** A rename takes the body a tenant is created with: its name. */
export const updateTenantBody = createTenantBody;

/**
 * Renames a tenant; a real change publishes administrator_update_general_settings with its diff, no change
 * publishes nothing. The admin API and the console's Settings page.
 */
export async function renameTenant(
  deps: Pick<AdminRouteDeps, 'dir' | 'clock'>,
  before: Tenant,
  name: string,
  emit: Emit,
): Promise<Tenant> {
  const diff = settingsDiff(before, { ...before, name }, ['name']);
  if (!diff) return before;
  const after = await deps.dir.tenants.update(before.tenantId, { name, updatedAt: deps.clock.now() });
  if (!after) throw new MgmtError(404, 'tenant_not_found', 'no such tenant');
  await emit(after.tenantId, adminActivity.updateGeneralSettings, { diff });
  return after;
}
