import type { BatchHandler } from '@sesame/events';
import type { Logger } from '@sesame/platform';
import { events } from '@sesame/proto';
import type { Counter } from 'prom-client';
import type { PingDispatcher } from '../ping-dispatcher';
import { decodedBatchHandler } from './decoded-batch';

/**
 * Consumes sesame.ciba-outcomes.v1. Each ping-mode outcome is handed to the PingDispatcher, which makes it
 * durable (stored and scheduled in the key-value store) and queues it for its endpoint; the batch resolves,
 * and so is committed, once every ping of it is durable: never waiting for a client endpoint. A failure to
 * make one durable fails the batch, which Kafka redelivers (at least once).
 */
export function cibaOutcomesHandler(deps: {
  dispatcher: Pick<PingDispatcher, 'accept'>;
  logger: Logger;
  results: Counter<'result'>;
}): BatchHandler {
  return decodedBatchHandler(
    (bytes) => events.CibaOutcome.decode(bytes),
    'CIBA outcome',
    deps,
    async (outcome) => {
      if (!outcome.notificationEndpoint) {
        deps.results.inc({ result: 'not_ping_mode' });
        return;
      }
      await deps.dispatcher.accept(outcome);
    },
  );
}
