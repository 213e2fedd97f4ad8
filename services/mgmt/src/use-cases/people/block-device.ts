import { GrpcStatus, MgmtError, isGrpcStatus } from '@sesame/platform';
import { type AdminActivityType, adminActivity } from '../../events/admin-events';
import { peerUnavailable, revokeUserGrants } from '../../peers';
import type { AdminRouteDeps } from '../deps';

/**
 * Blocks (allowAccess false) or unblocks one device of a person, as the admin API and the console's Users page
 * do: auth records it (404 user_not_found for a person of another tenant), a block ends the refresh tokens of
 * sign-ins made on the device, and administrator_block_user_device is published as the caller. Returns when
 * auth recorded the change (epoch ms).
 */
export async function blockUserDevice(
  deps: Pick<AdminRouteDeps, 'users' | 'grants'>,
  change: { tenantId: string; userId: string; deviceId: string; allowAccess: boolean },
  emit: (tenantId: string, activityType: AdminActivityType, data: Record<string, unknown>) => Promise<void>,
): Promise<number> {
  const { tenantId, userId, deviceId, allowAccess } = change;
  let changedAt: number;
  try {
    ({ changedAt } = await deps.users.blockDevice({ tenantId, userId, deviceId, allowAccess }));
  } catch (err) {
    if (isGrpcStatus(err, GrpcStatus.NOT_FOUND)) {
      throw new MgmtError(404, 'user_not_found', 'no such user in this tenant');
    }
    throw peerUnavailable(err, 'the user service');
  }
  if (!allowAccess) await revokeUserGrants(deps.grants, { tenantId, userId, deviceId });
  await emit(tenantId, adminActivity.blockUserDevice, { deviceId, userId, allowAccess });
  return changedAt;
}
