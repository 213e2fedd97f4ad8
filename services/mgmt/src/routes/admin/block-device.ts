import { GrpcStatus, MgmtError, isGrpcStatus } from '@sesame/platform';
import { Router } from 'express';
import { z } from 'zod';
import { adminOf } from '../../admin/admin-auth';
import { adminActivity } from '../../admin/admin-events';
import type { AdminRouteDeps } from '../../admin/deps';
import { requireTenant } from '../../admin/views';
import { asyncRoute } from '../../http/async-route';
import { parse } from '../../http/validate';
import { peerUnavailable, revokeUserGrants } from '../../peers';

const blockDeviceBody = z.object({ allowAccess: z.boolean().default(false) }).strict();
const pathId = z.string().min(1).max(256);

/**
 * POST /api/v1/admin/tenants/:tenantId/users/:userId/devices/:deviceId/block → `{status, userId, deviceId,
 * allowAccess, changedAt}`. Body `{allowAccess?: boolean}`: false (default) blocks the device, true lifts the
 * block. Recorded by auth (Users.BlockDevice), which owns users and devices; a block also ends the refresh
 * tokens of sign-ins made on that device (Grants.RevokeUserGrants).
 */
export function blockDeviceRoute(deps: AdminRouteDeps): Router {
  return Router().post(
    '/api/v1/admin/tenants/:tenantId/users/:userId/devices/:deviceId/block',
    asyncRoute(async (req, res) => {
      const body = parse(blockDeviceBody, req.body);
      const { userId, deviceId } = parse(z.object({ userId: pathId, deviceId: pathId }), req.params, 'path');
      const tenant = await requireTenant(deps.dir, req.params.tenantId!);
      let changedAt: number;
      try {
        ({ changedAt } = await deps.users.blockDevice({
          tenantId: tenant.tenantId,
          userId,
          deviceId,
          allowAccess: body.allowAccess,
        }));
      } catch (err) {
        if (isGrpcStatus(err, GrpcStatus.NOT_FOUND)) {
          throw new MgmtError(404, 'user_not_found', 'no such user in this tenant');
        }
        throw peerUnavailable(err, 'the user service');
      }
      if (!body.allowAccess) {
        await revokeUserGrants(deps.grants, { tenantId: tenant.tenantId, userId, deviceId });
      }
      await deps.events.publish(adminOf(res), tenant.tenantId, adminActivity.blockUserDevice, {
        deviceId,
        userId,
        allowAccess: body.allowAccess,
      });
      res.json({ status: 'success', userId, deviceId, allowAccess: body.allowAccess, changedAt });
    }),
  );
}
