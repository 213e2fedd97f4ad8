import { GrpcError, GrpcStatus } from '@sesame/platform';
import { events, type grants } from '@sesame/proto';
import type { TokenDeps } from '../deps';
import { pingTarget, publishCibaOutcome } from '../grants/ciba-outcome-events';
import { liveBackchannelRequest } from './open-request';

/** Grants.DenyBackchannel: the person refused (or failed); polls answer access_denied (ping: notified). */
export function denyBackchannel(deps: TokenDeps) {
  return async (request: grants.DenyBackchannelRequest): Promise<grants.DenyBackchannelResponse> => {
    const live = await liveBackchannelRequest(deps, request.authReqId);
    const ping = await pingTarget(deps, live);
    const outcome = { kind: 'denied' as const, reason: request.reason.slice(0, 200) };
    if (!(await deps.backchannel.settle(request.authReqId, live, outcome, deps.clock.now()))) {
      throw new GrpcError(GrpcStatus.FAILED_PRECONDITION, 'the request was already completed or denied');
    }
    if (ping) {
      await publishCibaOutcome(
        deps,
        ping,
        request.authReqId,
        live,
        events.CibaOutcomeKind.CIBA_OUTCOME_KIND_DENIED,
      );
    }
    return {};
  };
}
