import { GrpcError, GrpcStatus } from '@sesame/platform';
import { events } from '@sesame/proto';
import type { TokenDeps } from '../deps';
import { pingTarget, publishCibaOutcome } from '../grants/ciba-outcome-events';
import type { BackchannelOutcome } from '../grants/types';
import { liveBackchannelRequest } from './open-request';

const outcomeKinds = {
  completed: events.CibaOutcomeKind.CIBA_OUTCOME_KIND_COMPLETED,
  denied: events.CibaOutcomeKind.CIBA_OUTCOME_KIND_DENIED,
} as const;

/**
 * Records the person's decision on a live CIBA request (the first decision stands: a second one is
 * FAILED_PRECONDITION) and, in ping mode, publishes the outcome for the client's notification.
 */
export async function settleBackchannel(
  deps: TokenDeps,
  authReqId: string,
  outcome: BackchannelOutcome,
): Promise<void> {
  const live = await liveBackchannelRequest(deps, authReqId);
  const ping = await pingTarget(deps, live);
  if (!(await deps.backchannel.settle(authReqId, live, outcome, deps.clock.now()))) {
    throw new GrpcError(GrpcStatus.FAILED_PRECONDITION, 'the request was already completed or denied');
  }
  if (ping) await publishCibaOutcome(deps, ping, authReqId, live, outcomeKinds[outcome.kind]);
}
