import { newId, sha256 } from '@sesame/platform';
import { events, directory, topics } from '@sesame/proto';
import type { TokenDeps } from '../deps';
import type { BackchannelRequest } from './types';

/** Where a ping-mode client wants its notification; null for poll-mode clients. */
export interface PingTarget {
  notificationEndpoint: string;
}

/** Looked up before the decision is recorded, so a Directory failure leaves the request undecided (retryable). */
export async function pingTarget(deps: TokenDeps, request: BackchannelRequest): Promise<PingTarget | null> {
  const ciba = (await deps.directory.getClient(request.clientId))?.ciba;
  if (ciba?.mode !== directory.CibaDeliveryMode.CIBA_DELIVERY_MODE_PING || !ciba.notificationEndpoint)
    return null;
  return { notificationEndpoint: ciba.notificationEndpoint };
}

/**
 * Publishes the decision on `sesame.ciba-outcomes.v1` (keyed by the hash of the auth_req_id) for
 * ciba-notifier to POST `{auth_req_id}` to the client. The event carries the raw auth_req_id (the
 * notifier must send it); logs never do.
 */
export async function publishCibaOutcome(
  deps: TokenDeps,
  target: PingTarget,
  authReqId: string,
  request: BackchannelRequest,
  kind: events.CibaOutcomeKind,
): Promise<void> {
  const outcome: events.CibaOutcome = {
    outcomeId: newId(),
    authReqId,
    tenantId: request.tenantId,
    clientId: request.clientId,
    kind,
    notificationEndpoint: target.notificationEndpoint,
    clientNotificationToken: request.clientNotificationToken,
    timestampMs: deps.clock.now(),
  };
  await deps.publisher.publish(topics.cibaOutcomes, [
    { key: sha256(authReqId), value: events.CibaOutcome.encode(outcome).finish() },
  ]);
  deps.logger.info(
    { flowId: request.flowId, clientId: request.clientId, kind },
    'CIBA outcome published for ping',
  );
}
