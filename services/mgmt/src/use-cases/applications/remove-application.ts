import { MgmtError } from '@sesame/platform';
import { type Emit, adminActivity } from '../../events/admin-events';
import type { AdminRouteDeps } from '../deps';

/** Removes an application (its client stops working) and publishes administrator_remove_application. */
export async function removeApplication(
  deps: Pick<AdminRouteDeps, 'dir'>,
  tenantId: string,
  appId: string,
  emit: Emit,
): Promise<void> {
  const removed = await deps.dir.applications.remove(tenantId, appId);
  if (!removed) throw new MgmtError(404, 'application_not_found', 'no such application in this tenant');
  await emit(tenantId, adminActivity.removeApplication, { appId: removed.appId, appName: removed.name });
}
