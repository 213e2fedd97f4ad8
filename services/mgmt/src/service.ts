import type { EventBus } from '@sesame/events';
import {
  type Logger,
  type ServiceModule,
  createLogger,
  createMetrics,
  notImplemented,
} from '@sesame/platform';
import { directory } from '@sesame/proto';
import { openStores } from '@sesame/runtime';
import express from 'express';
import type { MgmtConfig } from './config';

export interface MgmtOverrides {
  logger?: Logger;
  /** Shared in-memory bus of the embedded launcher. */
  bus?: EventBus;
}

export async function createMgmtService(config: MgmtConfig, overrides: MgmtOverrides = {}): Promise<ServiceModule> {
  const logger = overrides.logger ?? createLogger({ service: 'mgmt', level: config.LOG_LEVEL });
  const metrics = createMetrics('mgmt');
  const stores = await openStores('mgmt', config, { events: true, mongo: true }, logger, { bus: overrides.bus });
  const routes = express.Router();
  return {
    name: 'mgmt',
    logger,
    metrics,
    routes,
    grpc: (server) =>
      server.add<directory.DirectoryServiceServer>(directory.DirectoryServiceService, {
        getClient: notImplemented,
        authenticateClient: notImplemented,
        authenticateApiCredentials: notImplemented,
      }),
    readiness: stores.readiness,
    stop: () => stores.close(),
  };
}
