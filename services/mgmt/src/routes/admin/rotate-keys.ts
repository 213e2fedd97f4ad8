import type { Router } from 'express';
import { PLATFORM_TENANT_ID, adminActivity } from '../../admin/admin-events';
import { adminRoute } from '../../admin/admin-route';
import type { AdminRouteDeps } from '../../admin/deps';
import { peerUnavailable } from '../../peers';

/**
 * POST /api/v1/admin/keys/rotate → `{signingKid, encryptionKid, activatesAt}` from Keys.RotateKeys (jwks).
 * Keys are platform-wide, so the admin event carries tenantId '*'.
 */
export function rotateKeysRoute(deps: AdminRouteDeps): Router {
  return adminRoute(
    deps,
    { method: 'post', path: '/api/v1/admin/keys/rotate', action: 'keys.rotate' },
    async ({ emit }) => {
      const rotated = await deps.keys.rotateKeys({}).catch((err: unknown) => {
        throw peerUnavailable(err, 'the key service');
      });
      const out = {
        signingKid: rotated.signingKid,
        encryptionKid: rotated.encryptionKid,
        activatesAt: rotated.activatesAt,
      };
      await emit(PLATFORM_TENANT_ID, adminActivity.rotateKeys, out);
      return out;
    },
  );
}
