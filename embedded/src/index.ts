import { randomBytes } from 'node:crypto';
import type { RequestListener } from 'node:http';
import { EmbeddedStore } from '@sesame/embedded-store';
import { type EventBus, MemoryEventBus, createEmbeddedEventBus } from '@sesame/events';
import { DevOutbox } from '@sesame/mail';
import {
  GrpcServer,
  type ListenTls,
  type Listening,
  type ServiceModule,
  baseConfigSchema,
  combinedMetrics,
  compileTrust,
  createHttpApp,
  createLogger,
  errorHandler,
  fastRouteListener,
  httpTimeouts,
  kindOf,
  listen,
  loadConfig,
  opsRouter,
  rawRouteListener,
  tracedListener,
  trustedProxiesOf,
} from '@sesame/platform';
import express from 'express';
import { storeBackupRoute } from './backup-route';
import { caFetch } from './ca-fetch';
import { mountServiceRoutes } from './mount-routes';
import { type DemoSeed, seedDemoOnce } from './seed';
import { serviceFactories } from './services';
import { LAUNCHER_COMPONENT, launcherMigrations } from './store-files';

export type { DemoSeed } from './seed';

export interface EmbeddedOptions {
  /** HTTP port serving the paths of auth_url, admin_url and api_url; 0 picks a free one. */
  port: number;
  /** The environment the services read (store URLs, keys, ...). */
  env?: Record<string, string | undefined>;
  /** Seed the demo tenant, application, API credentials and Owner, on an empty store only. */
  seedDemo?: boolean;
  /**
   * With seedDemo: register the sample app's back-channel logout URI (localhost:3000) on the demo app when
   * this environment accepts a loopback endpoint (`npm start` asks; see loopbackLogoutAllowed).
   */
  demoBackchannelLogout?: boolean;
  /**
   * The durable engine's data directory: opened (and locked) at start, handed to every service, closed last
   * at stop. Absent: everything in memory, as tests and benches want (`npm start` passes one by default).
   */
  dataDir?: string;
  host?: string;
  /**
   * The ops port: /healthz, /readyz and /metrics, and /ops/<service>/… (0 or absent: one the OS picks; the
   * launcher takes OPS_PORT). Metrics are served there only, never on the public port.
   */
  opsPort?: number;
  /**
   * Serve the public port over TLS (`npm start -- --https`, local-tls.ts): the URL, so the issuer and every
   * endpoint in discovery, becomes https. `ca` is the CA the certificate chains to (the demo seed trusts it).
   * The ops port stays plain http on the same host (probes and scrapes).
   */
  tls?: ListenTls & { ca: string };
}

export interface Embedded {
  url: string;
  port: number;
  /** The ops listener (metrics of every service: /metrics, /ops/<service>/metrics), on the same host. */
  opsUrl: string;
  opsPort: number;
  /** The demo data seeded on this start (undefined when not asked for, or when the store already had data). */
  demo?: DemoSeed;
  /** The durable engine the services keep their data on (undefined: in memory). */
  store?: EmbeddedStore;
  /** The admin key the admin API accepts: SESAME_ADMIN_KEY of `env`, or a random one made at start. */
  adminKey: string;
  /** The development mail outbox page (sign-in codes, invitations), when mail is kept in-process. */
  outboxUrl?: string;
  services: Record<string, ServiceModule>;
  grpcAddresses: Record<string, string>;
  stop(): Promise<void>;
}

/** Development and test (and an unset SESAME_ENV, which means development): the embedded defaults apply. */
const developmentLike = (name: string | undefined) => !name || name === 'development' || name === 'test';

const contractAddressVar = {
  auth: 'SESAME_USERS_ADDR',
  token: 'SESAME_GRANTS_ADDR',
  jwks: 'SESAME_KEYS_ADDR',
  mgmt: 'SESAME_DIRECTORY_ADDR',
  'activity-log': 'SESAME_ACTIVITY_LOGS_ADDR',
} as const;

/**
 * All six services in one process: the durable engine in `dataDir` (in-memory stores without one) unless
 * store URLs are set, one shared in-memory event
 * bus when no Kafka is configured, real gRPC over loopback between them, and one HTTP port for every path.
 */
export async function startEmbedded(opts: EmbeddedOptions): Promise<Embedded> {
  const host = opts.host ?? '127.0.0.1';
  const logger = createLogger({ service: 'embedded', level: opts.env?.LOG_LEVEL ?? 'info' });
  // Opened first: a second process on the same directory is refused with the engine's message, before it
  // binds a port (the same default port would otherwise fail first) or writes anything.
  const store = opts.dataDir ? openStore(opts.dataDir) : undefined;
  // Bind every socket first, on the port asked for or one the OS picks, and only then tell the services
  // their addresses: a port found free and bound later can be taken in between (by any outgoing
  // connection, which draws from the same ephemeral range).
  let handler: RequestListener = (_req, res) => {
    res.writeHead(503, { 'content-type': 'application/json' }).end('{"error":"starting"}');
  };
  const http: Listening = await listen(
    ((req, res) => handler(req, res)) as RequestListener,
    opts.port,
    host,
    httpTimeouts,
    opts.tls,
  ).catch((err) => {
    store?.close();
    throw err;
  });
  const url = `${opts.tls ? 'https' : 'http'}://localhost:${http.port}`;
  let opsHandler: RequestListener = (_req, res) => {
    res.writeHead(503, { 'content-type': 'application/json' }).end('{"error":"starting"}');
  };
  const ops: Listening = await listen(
    ((req, res) => opsHandler(req, res)) as RequestListener,
    opts.opsPort ?? 0,
    host,
  ).catch(async (err) => {
    await http.close(1000);
    store?.close();
    throw err;
  });
  const grpcServers: Record<string, GrpcServer> = {};
  const services: Record<string, ServiceModule> = {};
  const started: ServiceModule[] = [];
  let shuttingDown = false;
  let bus: EventBus | undefined;
  const teardown = async (timeoutMs: number) => {
    shuttingDown = true;
    await Promise.allSettled([
      http.close(timeoutMs),
      ops.close(timeoutMs),
      ...Object.values(grpcServers).map((s) => s.stop(timeoutMs)),
    ]);
    // Modules that started stop in reverse order; those created but never started still release their stores.
    const notStarted = Object.values(services).filter((m) => !started.includes(m));
    for (const mod of [...[...started].reverse(), ...notStarted]) await mod.stop().catch(() => undefined);
    await bus?.close();
    // Last: every service has stopped writing (the engine's close checkpoints its log).
    store?.close();
  };

  let env: Record<string, string | undefined>;
  let outbox = false;
  try {
    for (const { name } of serviceFactories) {
      const server = new GrpcServer({ logger });
      grpcServers[name] = server;
      await server.start(0, '127.0.0.1');
    }
    env = {
      SESAME_AUTH_URL: url,
      SESAME_ADMIN_URL: url,
      SESAME_API_URL: url,
      // The development default: the generated bootstrap key keeps working for the CLI and scripts after the
      // demo Owner exists. A production-like SESAME_ENV gets no default (mgmt refuses `on` there anyway).
      ...(developmentLike(opts.env?.SESAME_ENV) ? { SESAME_ADMIN_BREAK_GLASS: 'on' } : {}),
      ...opts.env,
      // Never a shared default: a key known to everyone opens the admin API to anyone who reaches the port.
      SESAME_ADMIN_KEY: opts.env?.SESAME_ADMIN_KEY || randomBytes(32).toString('base64url'),
    };
    for (const [service, variable] of Object.entries(contractAddressVar))
      env[variable] = `127.0.0.1:${grpcServers[service]!.port}`;
    // Without Kafka the services share one in-process bus: on the engine (events wait in its outbox until
    // every consumer group committed them, and are delivered again after a crash), else in memory.
    bus = env.SESAME_KAFKA_BROKERS ? undefined : store ? createEmbeddedEventBus(store) : new MemoryEventBus();
    // One development outbox for every service that mails (sign-in codes, administrator invitations), so
    // /dev/mail shows them all; SMTP or a production-like environment: each service picks its own sender.
    const mail =
      !env.SESAME_SMTP_URL && developmentLike(env.SESAME_ENV) ? new DevOutbox({ logger }) : undefined;
    outbox = mail !== undefined;

    for (const { name, create } of serviceFactories) {
      const mod = await create(env, { bus, mail, embedded: store });
      services[name] = mod;
      const server = grpcServers[name]!.instrument({ logger: mod.logger, metrics: mod.metrics });
      mod.grpc?.(server);
    }
    const app = createHttpApp(
      logger,
      undefined,
      compileTrust(trustedProxiesOf(loadConfig(baseConfigSchema, env))),
    );
    const all = Object.values(services);
    // Health and readiness on the public port (and the ops port); metrics on the ops port only.
    const mountOps = (target: express.Router, serveMetrics: boolean) => {
      target.use(
        opsRouter({
          readiness: all.flatMap((m) => m.readiness.map((r) => ({ ...r, name: `${m.name}.${r.name}` }))),
          metrics: all[0]!.metrics,
          isShuttingDown: () => shuttingDown,
          logger,
          serveMetrics,
          // One scrape carries every service's series (labelled by service), as Prometheus expects of /metrics.
          scrape: () => combinedMetrics(all.map((m) => m.metrics.registry)),
        }),
      );
      for (const mod of all) {
        target.use(
          `/ops/${mod.name}`,
          opsRouter({
            readiness: mod.readiness,
            metrics: mod.metrics,
            isShuttingDown: () => shuttingDown,
            logger: mod.logger,
            serveMetrics,
          }),
        );
      }
    };
    mountOps(app, false);
    const opsApp = createHttpApp(logger);
    mountOps(opsApp, true);
    if (store) opsApp.use(storeBackupRoute({ store, adminKey: env.SESAME_ADMIN_KEY!, logger }));
    opsApp.use(express.Router().all('*', (_req, res) => void res.status(404).json({ error: 'not_found' })));
    opsHandler = opsApp;
    mountServiceRoutes(app, all);
    // An unknown path: auth's hosted "Page not found" (JSON for a client asking for JSON), else plain JSON.
    const notFound = all.find((m) => m.notFound)?.notFound;
    app.use(
      notFound ?? express.Router().all('*', (_req, res) => void res.status(404).json({ error: 'not_found' })),
    );
    app.use(errorHandler(logger));
    handler = tracedListener(rawRouteListener(fastRouteListener(app, all), all));
    for (const mod of all) {
      await mod.start?.();
      started.push(mod);
    }
    for (const server of Object.values(grpcServers)) server.setServing(true);
  } catch (err) {
    await teardown(1000);
    throw err;
  }

  const stop = () => teardown(10_000);
  // The demo seed runs on an empty store only: on a restart the demo ids and secrets stay what they were.
  const demo = opts.seedDemo
    ? await seedDemoOnce(url, env.SESAME_ADMIN_KEY!, {
        backchannelLogout: (opts.demoBackchannelLogout ?? false) && loopbackLogoutAllowed(env),
        ...(opts.tls ? { fetchFn: caFetch(opts.tls.ca) } : {}),
      }).catch(async (err) => {
        await stop();
        throw err;
      })
    : undefined;
  const grpcAddresses = Object.fromEntries(
    Object.entries(grpcServers).map(([n, s]) => [n, `127.0.0.1:${s.port}`]),
  );
  return {
    url,
    port: http.port,
    opsUrl: `http://localhost:${ops.port}`,
    opsPort: ops.port,
    demo,
    store,
    adminKey: env.SESAME_ADMIN_KEY!,
    ...(outbox ? { outboxUrl: `${url}/dev/mail` } : {}),
    services,
    grpcAddresses,
    stop,
  };
}

/**
 * Whether mgmt saves a backchannelLogoutUri on a loopback host here: its SESAME_ALLOW_LOOPBACK_NOTIFICATIONS
 * rule (services/mgmt/src/config.ts), so the demo seed never asks for what mgmt would refuse.
 */
function loopbackLogoutAllowed(env: Record<string, string | undefined>): boolean {
  const allow = env.SESAME_ALLOW_LOOPBACK_NOTIFICATIONS;
  if (allow !== undefined) return allow === 'true';
  return kindOf(loadConfig(baseConfigSchema, env)) === 'development';
}

/** The engine in `dir`, with the launcher's own schema version brought forward (a newer store is refused). */
function openStore(dir: string): EmbeddedStore {
  const store = EmbeddedStore.open({ dir });
  try {
    store.migrate(LAUNCHER_COMPONENT, launcherMigrations);
  } catch (err) {
    store.close();
    throw err;
  }
  return store;
}
