import type { grants } from '@sesame/proto';
import type { TokenDeps } from '../deps';
import { settleBackchannel } from './settle-backchannel';

/** Grants.DenyBackchannel: the person refused (or failed); polls answer access_denied (ping: notified). */
export function denyBackchannel(deps: TokenDeps) {
  return async (request: grants.DenyBackchannelRequest): Promise<grants.DenyBackchannelResponse> => {
    await settleBackchannel(deps, request.authReqId, {
      kind: 'denied',
      reason: request.reason.slice(0, 200),
    });
    return {};
  };
}
