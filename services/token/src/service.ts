import type { EventBus } from '@sesame/events';
import {
  type Logger,
  type ServiceModule,
  createLogger,
  createMetrics,
  notImplemented,
} from '@sesame/platform';
import { grants } from '@sesame/proto';
import { openStores } from '@sesame/runtime';
import express from 'express';
import type { TokenConfig } from './config';

export interface TokenOverrides {
  logger?: Logger;
  /** Shared in-memory bus of the embedded launcher. */
  bus?: EventBus;
}

export async function createTokenService(config: TokenConfig, overrides: TokenOverrides = {}): Promise<ServiceModule> {
  const logger = overrides.logger ?? createLogger({ service: 'token', level: config.LOG_LEVEL });
  const metrics = createMetrics('token');
  const stores = await openStores('token', config, { kv: true, events: true }, logger, { bus: overrides.bus });
  const routes = express.Router();
  return {
    name: 'token',
    logger,
    metrics,
    routes,
    grpc: (server) =>
      server.add<grants.GrantsServiceServer>(grants.GrantsServiceService, {
        issueCode: notImplemented,
        startBackchannel: notImplemented,
        markBackchannelOpened: notImplemented,
        completeBackchannel: notImplemented,
        denyBackchannel: notImplemented,
        introspectAccessToken: notImplemented,
      }),
    readiness: stores.readiness,
    stop: () => stores.close(),
  };
}
