import type { EventBus } from '@sesame/events';
import { createFlowEvents } from '@sesame/flow-events';
import { DevOutbox, type MailSender, createMailSender, devMailRouter } from '@sesame/mail';
import { type Logger, type ServiceModule, createLogger, createMetrics } from '@sesame/platform';
import { users } from '@sesame/proto';
import { openStores, registerEventMetrics } from '@sesame/runtime';
import express from 'express';
import type { AuthConfig } from './config';
import { closeLocationLookup, openLocationLookup } from './devices';
import { hostedRouter } from './hosted';
import { buildHostedDeps } from './hosted/build-deps';
import { ASSETS_PATH, assetsRouter, createPageRenderer } from './pages';
import { type PasskeyRepository, createPasskeyStore } from './passkeys';
import { type AuthPeers, grpcPeers } from './peers';
import { mountDiscovery } from './routes/discovery';
import { type UserStore, createUserStore, usersGrpc } from './users';

export interface AuthOverrides {
  logger?: Logger;
  /** Shared in-memory bus of the embedded launcher. */
  bus?: EventBus;
  /** User store (users, app memberships); defaults to Mongo when configured, else in-memory. */
  userStore?: UserStore;
  /** Passkeys; defaults to Mongo when configured, else in-memory. */
  passkeys?: PasskeyRepository;
  /** Replaces the Directory, Keys and Grants clients (tests). */
  peers?: AuthPeers;
  /** Replaces the mail sender the config picks (tests read a DevOutbox). */
  mail?: MailSender;
}

export async function createAuthService(
  config: AuthConfig,
  overrides: AuthOverrides = {},
): Promise<ServiceModule> {
  const logger = overrides.logger ?? createLogger({ service: 'auth', level: config.LOG_LEVEL });
  const metrics = createMetrics('auth');
  const mail = overrides.mail ?? createMailSender(config, logger);
  const stores = await openStores('auth', config, { kv: true, events: true, mongo: true }, logger, {
    bus: overrides.bus,
  });
  if (!stores.kv || !stores.bus) throw new Error('auth needs its KV store and event bus');
  registerEventMetrics(metrics.registry, stores.bus);
  const userStore = overrides.userStore ?? createUserStore(stores.mongo);
  const peers = overrides.peers ?? grpcPeers(config);
  const location = await openLocationLookup().catch((err) => {
    logger.warn({ err }, 'no IP-location database: activity records carry no location');
    return undefined;
  });
  const deps = buildHostedDeps({
    config,
    logger,
    kv: stores.kv,
    users: userStore,
    passkeys: overrides.passkeys ?? createPasskeyStore(stores.mongo),
    peers,
    events: createFlowEvents({ publisher: stores.bus.publisher, logger }),
    location,
    pages: createPageRenderer(),
    sendMail: (m) => mail.send(m),
  });

  const routes = express.Router();
  const discovery = mountDiscovery(routes, config);
  routes.use(ASSETS_PATH, assetsRouter());
  // The development outbox is readable only in development: anywhere else mail goes out over SMTP.
  if (mail instanceof DevOutbox && config.SESAME_ENV === 'development') routes.use(devMailRouter(mail));
  routes.use(hostedRouter(deps));
  return {
    name: 'auth',
    logger,
    metrics,
    routes,
    fastRoutes: [discovery],
    grpc: (server) => server.add<users.UsersServiceServer>(users.UsersServiceService, usersGrpc(userStore)),
    readiness: stores.readiness,
    stop: async () => {
      peers.close();
      closeLocationLookup();
      await mail.close();
      await stores.close();
    },
  };
}
