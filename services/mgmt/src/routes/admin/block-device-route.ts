import type { Router } from 'express';
import { z } from 'zod';
import type { AdminRouteDeps } from '../../use-cases/deps';
import { blockUserDevice } from '../../use-cases/people/block-device';
import { tenantAdminRoute } from './admin-route';

const blockDeviceBody = z.object({ allowAccess: z.boolean().default(false) }).strict();
const pathId = z.string().min(1).max(256);

/**
 * POST /api/v1/admin/tenants/:tenantId/users/:userId/devices/:deviceId/block → `{status, userId, deviceId,
 * allowAccess, changedAt}`. Body `{allowAccess?: boolean}`: false (default) blocks the device, true lifts the
 * block. Recorded by auth (Users.BlockDevice), which owns users and devices; a block also ends the refresh
 * tokens of sign-ins made on that device (Grants.RevokeUserGrants).
 */
export function blockDeviceRoute(deps: AdminRouteDeps): Router {
  return tenantAdminRoute(
    deps,
    {
      method: 'post',
      action: 'device.block',
      stepUp: 'device.block',
      path: '/api/v1/admin/tenants/:tenantId/users/:userId/devices/:deviceId/block',
      body: blockDeviceBody,
      params: z.object({ userId: pathId, deviceId: pathId }),
    },
    async ({ body, params: { userId, deviceId }, tenant, emit }) => {
      const changedAt = await blockUserDevice(
        deps,
        { tenantId: tenant.tenantId, userId, deviceId, allowAccess: body.allowAccess },
        emit,
      );
      return { status: 'success', userId, deviceId, allowAccess: body.allowAccess, changedAt };
    },
  );
}
