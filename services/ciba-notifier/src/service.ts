import type { EventBus } from '@sesame/events';
import type { Logger, Resolver, ServiceModule } from '@sesame/platform';
import { topics } from '@sesame/proto';
import { openService } from '@sesame/runtime';
import { Counter } from 'prom-client';
import { type CibaNotifierConfig, notificationPolicy } from './config';
import { cibaOutcomesHandler } from './consumers/ciba-outcomes';
import { PingDispatcher } from './ping-dispatcher';

export interface CibaNotifierOverrides {
  logger?: Logger;
  /** Shared in-memory bus of the embedded launcher. */
  bus?: EventBus;
  sleep?: (ms: number) => Promise<void>;
  /** DNS for notification endpoints (tests play rebinding with it). */
  resolver?: Resolver;
}

export async function createCibaNotifierService(
  config: CibaNotifierConfig,
  overrides: CibaNotifierOverrides = {},
): Promise<ServiceModule> {
  const { logger, metrics, stores } = await openService(
    'ciba-notifier',
    config,
    { kv: true, events: true },
    overrides,
  );
  const kv = stores.kv!;
  const bus = stores.bus!;
  const results = new Counter({
    name: 'sesame_ciba_pings_total',
    help: 'CIBA ping notifications by result',
    labelNames: ['result'] as const,
    registers: [metrics.registry],
  });
  const consumer = bus.consumer({ groupId: 'sesame-ciba-notifier', topics: [topics.cibaOutcomes] });
  const dispatcher = new PingDispatcher(kv, logger, results, {
    ping: {
      attempts: config.CIBA_PING_ATTEMPTS,
      backoffMs: config.CIBA_PING_BACKOFF_MS,
      timeoutMs: config.CIBA_PING_TIMEOUT_MS,
      policy: notificationPolicy(config),
      ...(overrides.sleep ? { sleep: overrides.sleep } : {}),
      ...(overrides.resolver ? { resolver: overrides.resolver } : {}),
    },
    concurrencyPerEndpoint: config.CIBA_PING_CONCURRENCY_PER_ENDPOINT,
    maxWaitingPerEndpoint: config.CIBA_PING_QUEUE_PER_ENDPOINT,
  });
  return {
    name: 'ciba-notifier',
    logger,
    metrics,
    readiness: stores.readiness,
    start: async () => {
      await bus.ensureTopics([topics.cibaOutcomes]);
      dispatcher.start();
      await consumer.start(cibaOutcomesHandler({ dispatcher, logger, results }));
    },
    stop: async () => {
      await consumer.stop();
      await dispatcher.stop();
      await stores.close();
    },
  };
}
