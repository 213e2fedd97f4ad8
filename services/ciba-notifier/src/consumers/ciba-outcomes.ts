import type { BatchHandler } from '@sesame/events';
import type { KeyValueStore } from '@sesame/kv';
import type { Logger } from '@sesame/platform';
import { events } from '@sesame/proto';
import type { Counter } from 'prom-client';
import { type PingOptions, deliverPing } from '../notify';

/**
 * Consumes sesame.ciba-outcomes.v1. Pings of one batch go out concurrently; the batch is committed once each
 * ping was delivered or given up, so a notifier restart re-sends only what was not yet delivered.
 */
export function cibaOutcomesHandler(deps: {
  kv: KeyValueStore;
  logger: Logger;
  ping: PingOptions;
  results: Counter<'result'>;
}): BatchHandler {
  return async (batch) => {
    await Promise.all(
      batch.map(async (message) => {
        let outcome: events.CibaOutcome;
        try {
          outcome = events.CibaOutcome.decode(message.value);
        } catch (err) {
          deps.logger.error(
            { offset: message.offset, partition: message.partition, err },
            'undecodable CIBA outcome skipped',
          );
          deps.results.inc({ result: 'undecodable' });
          return;
        }
        if (!outcome.notificationEndpoint) {
          deps.results.inc({ result: 'not_ping_mode' });
          return;
        }
        deps.results.inc({ result: await deliverPing(outcome, deps.kv, deps.logger, deps.ping) });
      }),
    );
  };
}
