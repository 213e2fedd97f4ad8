import type { EventBus } from '@sesame/events';
import {
  GrpcError,
  GrpcStatus,
  type Logger,
  type ServiceModule,
  createLogger,
  createMetrics,
  notImplemented,
} from '@sesame/platform';
import { keys } from '@sesame/proto';
import { openStores } from '@sesame/runtime';
import express from 'express';
import type { JwksConfig } from './config';

export interface JwksOverrides {
  logger?: Logger;
  /** Shared in-memory bus of the embedded launcher. */
  bus?: EventBus;
}

export async function createJwksService(config: JwksConfig, overrides: JwksOverrides = {}): Promise<ServiceModule> {
  const logger = overrides.logger ?? createLogger({ service: 'jwks', level: config.LOG_LEVEL });
  const metrics = createMetrics('jwks');
  const stores = await openStores('jwks', config, { mongo: true }, logger, { bus: overrides.bus });
  const routes = express.Router();
  return {
    name: 'jwks',
    logger,
    metrics,
    routes,
    grpc: (server) =>
      server.add<keys.KeysServiceServer>(keys.KeysServiceService, {
        watchSigningKey: (call) => call.destroy(new GrpcError(GrpcStatus.UNIMPLEMENTED, 'not implemented yet')),
        decryptRequestObject: notImplemented,
        rotateKeys: notImplemented,
      }),
    readiness: stores.readiness,
    stop: () => stores.close(),
  };
}
