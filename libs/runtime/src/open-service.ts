import type { EmbeddedStore } from '@sesame/embedded-store';
import type { EventBus } from '@sesame/events';
import {
  type BaseConfig,
  type Logger,
  type ServiceMetrics,
  createLogger,
  createMetrics,
} from '@sesame/platform';
import { registerEventMetrics } from './event-metrics';
import { type StoreNeeds, type Stores, openStores } from './index';

/** What every service accepts in place of its own logger and bus. */
export interface ServiceOverrides {
  logger?: Logger;
  /** Shared in-memory bus of the embedded launcher. */
  bus?: EventBus;
  /** The embedded launcher's one durable engine, for every repository without a configured server. */
  embedded?: EmbeddedStore;
}

export interface ServiceBasics {
  logger: Logger;
  metrics: ServiceMetrics;
  stores: Stores;
}

/**
 * What every service is built on: its logger (the one given, else one at LOG_LEVEL), its metrics registry,
 * and the stores it needs (openStores), with the event metrics registered when it has an event bus.
 */
export async function openService(
  service: string,
  config: BaseConfig,
  needs: StoreNeeds,
  overrides: ServiceOverrides = {},
): Promise<ServiceBasics> {
  const logger = overrides.logger ?? createLogger({ service, level: config.LOG_LEVEL });
  const metrics = createMetrics(service);
  const stores = await openStores(service, config, needs, logger, {
    bus: overrides.bus,
    embedded: overrides.embedded,
  });
  if (stores.bus) registerEventMetrics(metrics.registry, stores.bus);
  return { logger, metrics, stores };
}
