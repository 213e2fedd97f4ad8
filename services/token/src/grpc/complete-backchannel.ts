import { GrpcError, GrpcStatus } from '@sesame/platform';
import { events, type grants } from '@sesame/proto';
import type { TokenDeps } from '../deps';
import { pingTarget, publishCibaOutcome } from '../grants/ciba-outcome-events';
import { liveBackchannelRequest } from './open-request';
import { requireClaims } from './validate';

/** Grants.CompleteBackchannel: the person authenticated; the next poll gets the tokens (ping: notified). */
export function completeBackchannel(deps: TokenDeps) {
  return async (request: grants.CompleteBackchannelRequest): Promise<grants.CompleteBackchannelResponse> => {
    const claims = requireClaims(request.claims);
    const live = await liveBackchannelRequest(deps, request.authReqId);
    const ping = await pingTarget(deps, live);
    const settled = await deps.backchannel.settle(
      request.authReqId,
      live,
      { kind: 'completed', claims, ...(request.login ? { login: request.login } : {}) },
      deps.clock.now(),
    );
    if (!settled)
      throw new GrpcError(GrpcStatus.FAILED_PRECONDITION, 'the request was already completed or denied');
    if (ping) {
      await publishCibaOutcome(
        deps,
        ping,
        request.authReqId,
        live,
        events.CibaOutcomeKind.CIBA_OUTCOME_KIND_COMPLETED,
      );
    }
    return {};
  };
}
