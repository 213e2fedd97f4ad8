import type { grants } from '@sesame/proto';
import type { TokenDeps } from '../deps';
import { settleBackchannel } from './settle-backchannel';
import { requireClaims } from './validate';

/** Grants.CompleteBackchannel: the person authenticated; the next poll gets the tokens (ping: notified). */
export function completeBackchannel(deps: TokenDeps) {
  return async (request: grants.CompleteBackchannelRequest): Promise<grants.CompleteBackchannelResponse> => {
    const claims = requireClaims(request.claims);
    await settleBackchannel(deps, request.authReqId, {
      kind: 'completed',
      claims,
      ...(request.login ? { login: request.login } : {}),
    });
    return {};
  };
}
