import type { EventBus } from '@sesame/events';
import { type Logger, type ServiceModule, createLogger, createMetrics } from '@sesame/platform';
import { users } from '@sesame/proto';
import { openStores } from '@sesame/runtime';
import express from 'express';
import type { AuthConfig } from './config';
import { mountDiscovery } from './routes/discovery';
import { type UserStore, createUserStore, usersGrpc } from './users';

export interface AuthOverrides {
  logger?: Logger;
  /** Shared in-memory bus of the embedded launcher. */
  bus?: EventBus;
  /** User store (users, app memberships); defaults to Mongo when configured, else in-memory. */
  userStore?: UserStore;
}

export async function createAuthService(
  config: AuthConfig,
  overrides: AuthOverrides = {},
): Promise<ServiceModule> {
  const logger = overrides.logger ?? createLogger({ service: 'auth', level: config.LOG_LEVEL });
  const metrics = createMetrics('auth');
  const stores = await openStores('auth', config, { kv: true, events: true, mongo: true }, logger, {
    bus: overrides.bus,
  });
  const userStore = overrides.userStore ?? createUserStore(stores.mongo);
  const routes = express.Router();
  const discovery = mountDiscovery(routes, config);
  return {
    name: 'auth',
    logger,
    metrics,
    routes,
    fastRoutes: [discovery],
    grpc: (server) => server.add<users.UsersServiceServer>(users.UsersServiceService, usersGrpc(userStore)),
    readiness: stores.readiness,
    stop: () => stores.close(),
  };
}
