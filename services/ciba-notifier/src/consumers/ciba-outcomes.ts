import type { BatchHandler } from '@sesame/events';
import { events } from '@sesame/proto';
import { type DispatchingDeps, dispatchingHandler } from './decoded-batch';

/**
 * Consumes sesame.ciba-outcomes.v1. Each ping-mode outcome is handed to the PingDispatcher, which makes it
 * durable (stored and scheduled in the key-value store) and queues it for its endpoint; the batch resolves,
 * and so is committed, once every ping of it is durable: never waiting for a client endpoint. A failure to
 * make one durable fails the batch, which Kafka redelivers (at least once).
 */
export function cibaOutcomesHandler(deps: DispatchingDeps<events.CibaOutcome>): BatchHandler {
  return dispatchingHandler(events.CibaOutcome, 'CIBA outcome', deps, (outcome) =>
    outcome.notificationEndpoint ? undefined : 'not_ping_mode',
  );
}
