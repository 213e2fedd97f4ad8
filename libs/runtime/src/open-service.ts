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
  overrides: { logger?: Logger; bus?: EventBus } = {},
): Promise<ServiceBasics> {
  const logger = overrides.logger ?? createLogger({ service, level: config.LOG_LEVEL });
  const metrics = createMetrics(service);
  const stores = await openStores(service, config, needs, logger, { bus: overrides.bus });
  if (stores.bus) registerEventMetrics(metrics.registry, stores.bus);
  return { logger, metrics, stores };
}
