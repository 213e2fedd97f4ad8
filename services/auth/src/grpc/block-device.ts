import { type Clock, GrpcError, GrpcStatus } from '@sesame/platform';
import type { users } from '@sesame/proto';
import type { UserStore } from '../users/users.repository';

/**
 * BlockDevice (admin API): records that a user's device is blocked (allow_access false) or unblocked for a
 * tenant. NOT_FOUND when the user has no association with the tenant.
 */
export function blockDevice(store: UserStore, clock: Clock) {
  return async (request: users.BlockDeviceRequest): Promise<users.BlockDeviceResponse> => {
    if (!request.tenantId || !request.userId || !request.deviceId) {
      throw new GrpcError(GrpcStatus.INVALID_ARGUMENT, 'tenant_id, user_id and device_id are required');
    }
    const known = await store.memberships.listForUser(request.tenantId, request.userId);
    if (known.length === 0) throw new GrpcError(GrpcStatus.NOT_FOUND, 'user not found');
    const changedAt = clock.now();
    await store.deviceAccess.set({
      tenantId: request.tenantId,
      userId: request.userId,
      deviceId: request.deviceId,
      allowAccess: request.allowAccess,
      changedAt,
    });
    return { changedAt };
  };
}
