import type { EventBus } from '@sesame/events';
import {
  type Logger,
  type ServiceModule,
  createLogger,
  createMetrics,
  notImplemented,
} from '@sesame/platform';
import { activitylogs } from '@sesame/proto';
import { openStores } from '@sesame/runtime';
import express from 'express';
import type { ActivityLogConfig } from './config';

export interface ActivityLogOverrides {
  logger?: Logger;
  /** Shared in-memory bus of the embedded launcher. */
  bus?: EventBus;
}

export async function createActivityLogService(config: ActivityLogConfig, overrides: ActivityLogOverrides = {}): Promise<ServiceModule> {
  const logger = overrides.logger ?? createLogger({ service: 'activity-log', level: config.LOG_LEVEL });
  const metrics = createMetrics('activity-log');
  const stores = await openStores('activity-log', config, { events: true, mongo: true }, logger, { bus: overrides.bus });
  const routes = express.Router();
  return {
    name: 'activity-log',
    logger,
    metrics,
    routes,
    grpc: (server) =>
      server.add<activitylogs.ActivityLogsServiceServer>(activitylogs.ActivityLogsServiceService, {
        queryActivityLogs: notImplemented,
        queryAdminLogs: notImplemented,
      }),
    readiness: stores.readiness,
    stop: () => stores.close(),
  };
}
