import { Router } from 'express';
import { adminOf } from '../../admin/admin-auth';
import { PLATFORM_TENANT_ID, adminActivity } from '../../admin/admin-events';
import type { AdminRouteDeps } from '../../admin/deps';
import { asyncRoute } from '../../http/async-route';
import { peerUnavailable } from '../../peers';

/**
 * POST /api/v1/admin/keys/rotate → `{signingKid, encryptionKid, activatesAt}` from Keys.RotateKeys (jwks).
 * Keys are platform-wide, so the admin event carries tenantId '*'.
 */
export function rotateKeysRoute(deps: AdminRouteDeps): Router {
  return Router().post(
    '/api/v1/admin/keys/rotate',
    asyncRoute(async (_req, res) => {
      const rotated = await deps.keys.rotateKeys({}).catch((err: unknown) => {
        throw peerUnavailable(err, 'the key service');
      });
      const out = {
        signingKid: rotated.signingKid,
        encryptionKid: rotated.encryptionKid,
        activatesAt: rotated.activatesAt,
      };
      await deps.events.publish(adminOf(res), PLATFORM_TENANT_ID, adminActivity.rotateKeys, out);
      res.json(out);
    }),
  );
}
