import { MgmtError } from '@sesame/platform';
import type { Router } from 'express';
import { SYSTEM_TENANT_ID } from '../../directory/system-tenant';
import { PLATFORM_TENANT_ID, adminActivity } from '../../events/admin-events';
import { peerUnavailable } from '../../peers';
import type { AdminRouteDeps } from '../../use-cases/deps';
import { adminRoute } from './admin-route';

/**
 * POST /api/v1/admin/keys/rotate → `{signingKid, encryptionKid, activatesAt}` from Keys.RotateKeys (jwks).
 * Keys are platform-wide, so the admin event carries tenantId '*', and no customer tenant's Owner may rotate
 * them: only the bootstrap key (under break-glass) or an Owner of the platform's own system tenant.
 */
export function rotateKeysRoute(deps: AdminRouteDeps): Router {
  return adminRoute(
    deps,
    { method: 'post', path: '/api/v1/admin/keys/rotate', action: 'keys.rotate' },
    async ({ emit, principal }) => {
      if (principal.kind !== 'bootstrap' && principal.tenantId !== SYSTEM_TENANT_ID) {
        throw new MgmtError(
          403,
          'forbidden',
          "signing keys are shared by every tenant: only the platform's operators may rotate them",
        );
      }
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
