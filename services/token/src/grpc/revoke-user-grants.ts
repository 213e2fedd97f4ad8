import type { grants } from '@sesame/proto';
import { z } from 'zod';
import type { TokenDeps } from '../deps';
import { validate } from './validate';

const requestSchema = z.object({
  tenantId: z.string().min(1),
  userId: z.string().min(1),
  appId: z.string(),
  deviceId: z.string(),
});

/**
 * Grants.RevokeUserGrants, called by mgmt after DELETE users (the whole tenant, or one app) and after a
 * device block: every refresh token family of that user (of that app, or whose sign-in was made on that
 * device) started until now stops refreshing (invalid_grant). Families started later are not affected.
 */
export function revokeUserGrants(deps: Pick<TokenDeps, 'refreshTokens' | 'clock'>) {
  return async (request: grants.RevokeUserGrantsRequest): Promise<grants.RevokeUserGrantsResponse> => {
    const valid = validate(requestSchema, request, 'RevokeUserGrantsRequest');
    await deps.refreshTokens.revokeUser(
      {
        tenantId: valid.tenantId,
        sub: valid.userId,
        ...(valid.appId ? { appId: valid.appId } : {}),
        ...(valid.deviceId ? { deviceId: valid.deviceId } : {}),
      },
      deps.clock.now(),
    );
    return {};
  };
}
