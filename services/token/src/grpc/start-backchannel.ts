import type { grants } from '@sesame/proto';
import { z } from 'zod';
import type { TokenDeps } from '../deps';
import { validate } from './validate';

const requestSchema = z.object({
  tenantId: z.string().min(1),
  appId: z.string().min(1),
  clientId: z.string().min(1),
  scope: z.string(),
  clientNotificationToken: z.string().max(1024),
  /** 0 means the default (spec 8: 30 minutes). */
  expiresIn: z
    .number()
    .int()
    .min(0)
    .max(24 * 3600),
  flowId: z.string(),
});

/** Grants.StartBackchannel: a new CIBA request in state link_sent; returns auth_req_id, expires_in, interval. */
export function startBackchannel(deps: TokenDeps) {
  return async (request: grants.StartBackchannelRequest): Promise<grants.StartBackchannelResponse> => {
    const valid = validate(requestSchema, request, 'StartBackchannelRequest');
    const expiresIn = valid.expiresIn || deps.config.SESAME_CIBA_EXPIRES_IN_S;
    const intervalS = deps.config.SESAME_CIBA_INTERVAL_S;
    const now = deps.clock.now();
    const authReqId = await deps.backchannel.start(
      {
        tenantId: valid.tenantId,
        appId: valid.appId,
        clientId: valid.clientId,
        scope: valid.scope,
        flowId: valid.flowId,
        clientNotificationToken: valid.clientNotificationToken,
        expiresAt: now + expiresIn * 1000,
        intervalS,
      },
      now,
    );
    return { authReqId, expiresIn, interval: intervalS };
  };
}
