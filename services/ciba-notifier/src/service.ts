import type { Resolver } from '@sesame/platform';
import { topics } from '@sesame/proto';
import { type ServiceOverrides, defineService } from '@sesame/runtime';
import { Counter } from 'prom-client';
import { logoutDispatcher, logoutNoticesHandler } from './backchannel-logout';
import { type CibaNotifierConfig, notificationPolicy } from './config';
import { cibaOutcomesHandler } from './consumers/ciba-outcomes';
import { PingDispatcher } from './ping-dispatcher';

export interface CibaNotifierOverrides extends ServiceOverrides {
  sleep?: (ms: number) => Promise<void>;
  /** DNS for notification endpoints (tests play rebinding with it). */
  resolver?: Resolver;
}

export const createCibaNotifierService = defineService<CibaNotifierConfig, CibaNotifierOverrides>(
  'ciba-notifier',
  { kv: true, events: true },
  async ({ config, overrides, logger, metrics, stores }) => {
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
    // Back-Channel Logout 1.0: the same per-endpoint queues, retry policy and outbound rules as pings, in a
    // dispatcher and consumer group of its own (a stuck ping endpoint never holds a logout, nor the reverse).
    const logoutResults = new Counter({
      name: 'sesame_backchannel_logouts_total',
      help: 'Back-channel logout notices by result',
      labelNames: ['result'] as const,
      registers: [metrics.registry],
    });
    const logoutConsumer = bus.consumer({
      groupId: 'sesame-backchannel-logout',
      topics: [topics.logoutNotices],
    });
    const logouts = logoutDispatcher(kv, logger, logoutResults, {
      attempts: config.CIBA_PING_ATTEMPTS,
      backoffMs: config.CIBA_PING_BACKOFF_MS,
      ...(overrides.sleep ? { sleep: overrides.sleep } : {}),
      concurrencyPerEndpoint: config.CIBA_PING_CONCURRENCY_PER_ENDPOINT,
      maxWaitingPerEndpoint: config.CIBA_PING_QUEUE_PER_ENDPOINT,
      post: {
        timeoutMs: config.CIBA_PING_TIMEOUT_MS,
        policy: notificationPolicy(config),
        ...(overrides.resolver ? { resolver: overrides.resolver } : {}),
      },
    });
    return {
      start: async () => {
        await bus.ensureTopics([topics.cibaOutcomes, topics.logoutNotices]);
        dispatcher.start();
        logouts.start();
        await consumer.start(cibaOutcomesHandler({ dispatcher, logger, results }));
        await logoutConsumer.start(
          logoutNoticesHandler({ dispatcher: logouts, logger, results: logoutResults }),
        );
      },
      stop: async () => {
        await consumer.stop();
        await logoutConsumer.stop();
        await dispatcher.stop();
        await logouts.stop();
      },
    };
  },
);
