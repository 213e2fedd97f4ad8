import type { KeyValueStore } from '@sesame/kv';
import { type MailSender, createMailSender } from '@sesame/mail';
import {
  type Clock,
  type Logger,
  MgmtError,
  createClient,
  grpcTlsOf,
  systemClock,
  withTimeout,
} from '@sesame/platform';
import { activitylogs, directory, grants, keys, topics, users } from '@sesame/proto';
import { type ServiceOverrides, defineService } from '@sesame/runtime';
import { type AdminsRepositories, createAdmins } from './admins';
import { breakGlassActive, parseBreakGlass } from './admins/break-glass';
import { type MgmtConfig, allowsLoopbackEndpoints } from './config';
import { type DirectoryRepositories, createDirectory } from './directory';
import { consoleClientSecret } from './directory/system-tenant';
import { createAdminEventPublisher } from './events/admin-events';
import { directoryGrpc } from './grpc/directory-service';
import { mgmtRoutes } from './http-routes';
import type { GrantsPeer, KeysPeer, SupportFlowsPeer, SupportUsersPeer, UsersPeer } from './peers';
import { supportFlowsPeer } from './peers';
import { AdminKeyThrottle } from './routes/admin/admin-key-throttle';
import { ClientSecretVault, parseKeyRing } from './secrets/client-secret-vault';
import { createSupportPort } from './support/grpc-support';
import type { SupportPort } from './support/port';

/** A page may hold 5000 full records (spec 8): more than the default 3 s deadline allows on a busy pod. */
export const ACTIVITY_LOGS_DEADLINE_MS = 10_000;
export interface MgmtOverrides extends ServiceOverrides {
  directory?: DirectoryRepositories;
  admins?: AdminsRepositories;
  /** Where invitation mail goes; default: SMTP when SESAME_SMTP_URL is set, else the development outbox. */
  mail?: MailSender;
  clock?: Clock;
  /** Short-lived state (console sessions, admin-key throttle, nonces); default: the configured store (tests count its entries). */
  kv?: KeyValueStore;
  /** Peer clients; default: gRPC clients at the configured SESAME_*_ADDR. */
  grants?: GrantsPeer;
  users?: UsersPeer;
  keys?: KeysPeer;
  /**
   * The support look-up the console's Users and Activity pages and the admin API's support routes read (tests);
   * given as undefined, none (503). Absent: the port over the support peers below.
   */
  support?: SupportPort;
  /** Support's peers (support/grpc-support.ts); default: the auth and activity-log clients. */
  supportUsers?: SupportUsersPeer;
  supportFlows?: SupportFlowsPeer;
}

export const createMgmtService = defineService<MgmtConfig, MgmtOverrides>(
  'mgmt',
  { kv: true, events: true, mongo: true },
  async ({ config, overrides, logger, stores }) => {
    // Mongo when configured, else the embedded default's durable engine when given, else in memory.
    const dir = overrides.directory ?? createDirectory(stores.mongo, stores.embedded);
    const admins = overrides.admins ?? createAdmins(stores.mongo, stores.embedded);
    const clock = overrides.clock ?? systemClock;
    const kv = overrides.kv ?? stores.kv!;
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
    const breakGlass = parseBreakGlass(config.SESAME_ADMIN_BREAK_GLASS) as Exclude<
      ReturnType<typeof parseBreakGlass>,
      string
    >;
    if (!config.SESAME_ADMIN_KEY) {
      logger.warn('SESAME_ADMIN_KEY is not set: the admin API accepts only personal API tokens');
    } else if (breakGlassActive(breakGlass, clock.now())) {
      logger.error(
        { breakGlass: config.SESAME_ADMIN_BREAK_GLASS },
        'BREAK-GLASS IS ON: the bootstrap admin key acts as an Owner of every tenant; turn it off when done',
      );
    }
    const mailer = overrides.mail ?? mailerOf(config, logger);
    const keyRing = parseKeyRing(config.SESAME_CLIENT_SECRET_KEYS);
    // An explicit `support: undefined` is a server without a support look-up (its pages and routes answer 503).
    const support =
      'support' in overrides
        ? overrides.support
        : createSupportPort({
            users: overrides.supportUsers ?? clients.users,
            flows: overrides.supportFlows ?? supportFlowsPeer(clients.activityLogs),
            appName: async (tenantId, appId) => (await dir.applications.get(tenantId, appId))?.name,
            clientName: async (tenantId, clientId) => {
              const app = await dir.applications.findByClientId(clientId);
              return app?.tenantId === tenantId ? app.name : undefined;
            },
          });
    const routes = mgmtRoutes({
      dir,
      events: createAdminEventPublisher(bus.publisher, clock),
      clock,
      admins,
      adminKey: config.SESAME_ADMIN_KEY,
      breakGlass,
      mailer,
      invitationTtlMs: config.SESAME_ADMIN_INVITATION_TTL_H * 3_600_000,
      adminKeyThrottle: new AdminKeyThrottle(kv, {
        perIp: config.SESAME_ADMIN_KEY_FAILURES_PER_IP,
        windowMs: config.SESAME_ADMIN_KEY_FAILURE_WINDOW_S * 1000,
      }),
      adminUrl: config.SESAME_ADMIN_URL,
      apiUrl: config.SESAME_API_URL,
      grants: overrides.grants ?? clients.grants,
      users: overrides.users ?? clients.users,
      keys: overrides.keys ?? clients.keys,
      activityLogs: clients.activityLogs,
      support,
      secretVault: new ClientSecretVault(keyRing),
      authUrl: config.SESAME_AUTH_URL,
      kv,
      consoleClientSecret: consoleClientSecret(keyRing),
      allowLoopbackEndpoints: allowsLoopbackEndpoints(config),
    });
    return {
      routes,
      grpc: (server) =>
        server.add<directory.DirectoryServiceServer>(directory.DirectoryServiceService, directoryGrpc(dir)),
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
        await mailer.close();
      },
    };
  },
);

/**
 * The mail sender of invitations: the mail library's (SMTP, or the development outbox). Where neither may
 * be used (production without SESAME_SMTP_URL) invitations answer 503 instead of failing the start.
 */
function mailerOf(config: MgmtConfig, logger: Logger): MailSender {
  try {
    return createMailSender(config, logger);
  } catch {
    logger.warn('SESAME_SMTP_URL is not set: administrator invitations cannot be sent');
    return {
      async send() {
        throw new MgmtError(503, 'temporarily_unavailable', 'mail is not configured (SESAME_SMTP_URL)');
      },
      async close() {},
    };
  }
}
