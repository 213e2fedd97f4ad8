import type { EventBus } from '@sesame/events';
import {
  type Clock,
  type Logger,
  type ServiceModule,
  createClient,
  grpcTlsOf,
  systemClock,
  withTimeout,
} from '@sesame/platform';
import { activitylogs, directory, grants, keys, topics, users } from '@sesame/proto';
import { openService } from '@sesame/runtime';
import { createAdminEventPublisher } from './admin/admin-events';
import { AdminKeyThrottle } from './admin/admin-key-throttle';
import type { MgmtConfig } from './config';
import { type DirectoryRepositories, createDirectory, directoryGrpc } from './directory';
import { mgmtRoutes } from './http-routes';
import type { GrantsPeer, KeysPeer, UsersPeer } from './peers';
import { ClientSecretVault, parseKeyRing } from './secrets/client-secret-vault';

/** A page may hold 5000 full records (spec 8): more than the default 3 s deadline allows on a busy pod. */
export const ACTIVITY_LOGS_DEADLINE_MS = 10_000;
export interface MgmtOverrides {
  logger?: Logger;
  /** Shared in-memory bus of the embedded launcher. */
  bus?: EventBus;
  directory?: DirectoryRepositories;
  clock?: Clock;
  /** Peer clients; default: gRPC clients at the configured SESAME_*_ADDR. */
  grants?: GrantsPeer;
  users?: UsersPeer;
  keys?: KeysPeer;
}

export async function createMgmtService(
  config: MgmtConfig,
  overrides: MgmtOverrides = {},
): Promise<ServiceModule> {
  const { logger, metrics, stores } = await openService(
    'mgmt',
    config,
    { kv: true, events: true, mongo: true },
    overrides,
  );
  const dir = overrides.directory ?? createDirectory(stores.mongo);
  const clock = overrides.clock ?? systemClock;
  const bus = stores.bus!;
  const tls = grpcTlsOf(config);
  const clients = {
    grants: createClient(grants.GrantsServiceClient, config.SESAME_GRANTS_ADDR, { tls }),
    users: createClient(users.UsersServiceClient, config.SESAME_USERS_ADDR, { tls }),
    keys: createClient(keys.KeysServiceClient, config.SESAME_KEYS_ADDR, { deadlineMs: 10_000, tls }),
    activityLogs: createClient(activitylogs.ActivityLogsServiceClient, config.SESAME_ACTIVITY_LOGS_ADDR, {
      deadlineMs: ACTIVITY_LOGS_DEADLINE_MS,
      tls,
    }),
  };
  if (!config.SESAME_ADMIN_KEY) logger.warn('SESAME_ADMIN_KEY is not set: the admin API refuses every call');
  const routes = mgmtRoutes({
    dir,
    events: createAdminEventPublisher(bus.publisher, clock),
    clock,
    adminKey: config.SESAME_ADMIN_KEY,
    adminKeyThrottle: new AdminKeyThrottle(stores.kv!, {
      perIp: config.SESAME_ADMIN_KEY_FAILURES_PER_IP,
      windowMs: config.SESAME_ADMIN_KEY_FAILURE_WINDOW_S * 1000,
    }),
    defaultAdminEmail: config.SESAME_ADMIN_EMAIL,
    adminUrl: config.SESAME_ADMIN_URL,
    apiUrl: config.SESAME_API_URL,
    grants: overrides.grants ?? clients.grants,
    users: overrides.users ?? clients.users,
    keys: overrides.keys ?? clients.keys,
    activityLogs: clients.activityLogs,
    secretVault: new ClientSecretVault(parseKeyRing(config.SESAME_CLIENT_SECRET_KEYS)),
    kv: stores.kv!,
  });
  return {
    name: 'mgmt',
    logger,
    metrics,
    routes,
    grpc: (server) =>
      server.add<directory.DirectoryServiceServer>(directory.DirectoryServiceService, directoryGrpc(dir)),
    readiness: stores.readiness,
    start: async () => {
      // Best effort: with Kafka down the outbox keeps events until the topic can be written.
      await withTimeout(
        bus.ensureTopics([topics.adminEvents]),
        5000,
        'creating the admin events topic',
      ).catch((err: unknown) => {
        logger.warn({ err }, 'could not ensure the admin events topic; will publish when Kafka is back');
      });
    },
    stop: async () => {
      for (const client of Object.values(clients)) client.close();
      await stores.close();
    },
  };
}
