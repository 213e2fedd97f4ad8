import type { EventBus } from '@sesame/events';
import { type Logger, type ServiceModule, createLogger, createMetrics } from '@sesame/platform';
import { topics } from '@sesame/proto';
import { openStores, registerEventMetrics } from '@sesame/runtime';
import { Counter } from 'prom-client';
import type { CibaNotifierConfig } from './config';
import { cibaOutcomesHandler } from './consumers/ciba-outcomes';

export interface CibaNotifierOverrides {
  logger?: Logger;
  /** Shared in-memory bus of the embedded launcher. */
  bus?: EventBus;
  sleep?: (ms: number) => Promise<void>;
}

export async function createCibaNotifierService(
  config: CibaNotifierConfig,
  overrides: CibaNotifierOverrides = {},
): Promise<ServiceModule> {
  const logger = overrides.logger ?? createLogger({ service: 'ciba-notifier', level: config.LOG_LEVEL });
  const metrics = createMetrics('ciba-notifier');
  const stores = await openStores('ciba-notifier', config, { kv: true, events: true }, logger, {
    bus: overrides.bus,
  });
  if (stores.bus) registerEventMetrics(metrics.registry, stores.bus);
  const kv = stores.kv!;
  const bus = stores.bus!;
  const results = new Counter({
    name: 'sesame_ciba_pings_total',
    help: 'CIBA ping notifications by result',
    labelNames: ['result'] as const,
    registers: [metrics.registry],
  });
  const consumer = bus.consumer({ groupId: 'sesame-ciba-notifier', topics: [topics.cibaOutcomes] });
  return {
    name: 'ciba-notifier',
    logger,
    metrics,
    readiness: stores.readiness,
    start: async () => {
      await bus.ensureTopics([topics.cibaOutcomes]);
      await consumer.start(
        cibaOutcomesHandler({
          kv,
          logger,
          results,
          ping: {
            attempts: config.CIBA_PING_ATTEMPTS,
            backoffMs: config.CIBA_PING_BACKOFF_MS,
            timeoutMs: config.CIBA_PING_TIMEOUT_MS,
            sleep: overrides.sleep,
          },
        }),
      );
    },
    stop: async () => {
      await consumer.stop();
      await stores.close();
    },
  };
}
