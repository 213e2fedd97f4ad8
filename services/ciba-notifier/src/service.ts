import type { EventBus } from '@sesame/events';
import type { Logger, ServiceModule } from '@sesame/platform';
import { topics } from '@sesame/proto';
import { openService } from '@sesame/runtime';
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
