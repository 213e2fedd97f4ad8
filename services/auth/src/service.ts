import type { EventBus } from '@sesame/events';
import {
  type Logger,
  type ServiceModule,
  createLogger,
  createMetrics,
  notImplemented,
} from '@sesame/platform';
import { users } from '@sesame/proto';
import { openStores } from '@sesame/runtime';
import express from 'express';
import type { AuthConfig } from './config';

export interface AuthOverrides {
  logger?: Logger;
  /** Shared in-memory bus of the embedded launcher. */
  bus?: EventBus;
}

export async function createAuthService(config: AuthConfig, overrides: AuthOverrides = {}): Promise<ServiceModule> {
  const logger = overrides.logger ?? createLogger({ service: 'auth', level: config.LOG_LEVEL });
  const metrics = createMetrics('auth');
  const stores = await openStores('auth', config, { kv: true, events: true, mongo: true }, logger, { bus: overrides.bus });
  const routes = express.Router();
  return {
    name: 'auth',
    logger,
    metrics,
    routes,
    grpc: (server) =>
      server.add<users.UsersServiceServer>(users.UsersServiceService, {
        removeUser: notImplemented,
        lookupUser: notImplemented,
      }),
    readiness: stores.readiness,
    stop: () => stores.close(),
  };
}
