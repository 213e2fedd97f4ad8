import type { KeyValueStore } from '@sesame/kv';
import type { Logger } from '@sesame/platform';
import { events } from '@sesame/proto';
import type { Counter } from 'prom-client';
import { DeliveryDispatcher } from './delivery-dispatcher';
import { type PingOptions, attemptPing, countOutcome, deliveredMark } from './notify';

export interface DispatcherOptions {
  ping: PingOptions;
  /** Pings in flight at once per endpoint, and waiting per endpoint. */
  concurrencyPerEndpoint: number;
  maxWaitingPerEndpoint: number;
  /** A pending ping nobody touched for this long is taken over (its notifier stopped). */
  reclaimAfterMs?: number;
  /** How often in-flight pings are touched and abandoned ones looked for. */
  sweepEveryMs?: number;
}

/**
 * Delivers CIBA pings through the DeliveryDispatcher (per-endpoint queues, durable schedule, take-over):
 * its records are `ciba-ping:<hash of the outcome id>`, scheduled under `ciba-pings:pending`. A ping is
 * idempotent for the client (it polls /token).
 */
export class PingDispatcher extends DeliveryDispatcher<events.CibaOutcome> {
  constructor(
    kv: KeyValueStore,
    logger: Logger,
    results: Counter<'result'>,
    opts: DispatcherOptions,
    now: () => number = Date.now,
  ) {
    super(
      kv,
      logger,
      results,
      {
        prefix: 'ciba-ping',
        label: 'ciba ping',
        givenUp: 'the client can still poll /token',
        idOf: (o) => o.outcomeId,
        endpointOf: (o) => o.notificationEndpoint,
        logFields: (o) => ({ outcomeId: o.outcomeId, clientId: o.clientId }),
        codec: events.CibaOutcome,
        deliveredMark: (o) => deliveredMark(o.outcomeId),
        accepted: countOutcome,
        attempt: (o, attempt, log) => attemptPing(o, attempt, kv, log, opts.ping),
      },
      {
        attempts: opts.ping.attempts,
        backoffMs: opts.ping.backoffMs,
        ...(opts.ping.sleep ? { sleep: opts.ping.sleep } : {}),
        concurrencyPerEndpoint: opts.concurrencyPerEndpoint,
        maxWaitingPerEndpoint: opts.maxWaitingPerEndpoint,
        ...(opts.reclaimAfterMs !== undefined ? { reclaimAfterMs: opts.reclaimAfterMs } : {}),
        ...(opts.sweepEveryMs !== undefined ? { sweepEveryMs: opts.sweepEveryMs } : {}),
      },
      now,
    );
  }
}
