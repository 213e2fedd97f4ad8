import type { EventBus } from '@sesame/events';
import {
  type Logger,
  type ServiceModule,
  createLogger,
  createMetrics,
} from '@sesame/platform';
import { openStores } from '@sesame/runtime';
import express from 'express';
import type { CibaNotifierConfig } from './config';

export interface CibaNotifierOverrides {
  logger?: Logger;
  /** Shared in-memory bus of the embedded launcher. */
  bus?: EventBus;
}

export async function createCibaNotifierService(config: CibaNotifierConfig, overrides: CibaNotifierOverrides = {}): Promise<ServiceModule> {
  const logger = overrides.logger ?? createLogger({ service: 'ciba-notifier', level: config.LOG_LEVEL });
  const metrics = createMetrics('ciba-notifier');
  const stores = await openStores('ciba-notifier', config, { kv: true, events: true }, logger, { bus: overrides.bus });
  const routes = express.Router();
  return {
    name: 'ciba-notifier',
    logger,
    metrics,
    routes,
    readiness: stores.readiness,
    stop: () => stores.close(),
  };
}
