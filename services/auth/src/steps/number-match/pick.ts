import type { FlowAction } from '@sesame/flow-events';
import type { Flow } from '../../flow/flow';
import { NUMBER_MISMATCH_REASON, checkPick } from '../../flow/number-match';
import type { HostedDeps } from '../../web/deps';

/**
 * One pick on the flow whose device shows the number: `invalid` (not one of its three choices, or the flow
 * has none) spends nothing and is answered as bad input; otherwise the flow's one attempt is taken first, so
 * a second pick, even racing the first, is `replayed`; then `right` or `wrong`.
 */
export async function takePick(
  deps: Pick<HostedDeps, 'flows' | 'now'>,
  shows: Flow,
  picked: unknown,
): Promise<'right' | 'wrong' | 'invalid' | 'replayed'> {
  if (!shows.numberMatch) return 'invalid';
  const verdict = checkPick(shows.numberMatch, picked);
  if (verdict === 'invalid') return 'invalid';
  if (!(await deps.flows.claimOnce(shows, 'number-pick', deps.now()))) return 'replayed';
  return verdict;
}

/**
 * A wrong pick on the flow's record: status failure, errorCode auth_failure (spec 2.4's vocabulary) and its own
 * failureReason (NUMBER_MISMATCH_REASON, "number_mismatch: …"), under the step's action (a magic link's
 * email_verification_failure, the phone's device_auth).
 */
export function recordMismatch(
  deps: Pick<HostedDeps, 'record'>,
  flow: Flow,
  action: Extract<FlowAction, 'email_verification_failure' | 'device_auth'>,
  clientIp: string,
): Promise<void> {
  return deps.record(flow, action, {
    status: 'failure',
    errorCode: 'auth_failure',
    failureReason: NUMBER_MISMATCH_REASON,
    clientIp,
  });
}
