import { MemoryEventBus } from '@sesame/events';
import { DEV_ADMIN_KEY } from '@sesame/mgmt-service';
import {
  GrpcServer,
  type Listening,
  type ServiceModule,
  createHttpApp,
  createLogger,
  errorHandler,
  fastRouteListener,
  listen,
  opsRouter,
  rawRouteListener,
} from '@sesame/platform';
import express from 'express';
import { freePort } from './ports';
import { type DemoSeed, seedDemo } from './seed';
import { serviceFactories } from './services';

export type { DemoSeed } from './seed';

export interface EmbeddedOptions {
  /** HTTP port serving the paths of auth_url, admin_url and api_url; 0 picks a free one. */
  port: number;
  /** The environment the services read (store URLs, keys, ...). */
  env?: Record<string, string | undefined>;
  seedDemo?: boolean;
  host?: string;
}

export interface Embedded {
  url: string;
  port: number;
  demo?: DemoSeed;
  services: Record<string, ServiceModule>;
  grpcAddresses: Record<string, string>;
  stop(): Promise<void>;
}

const contractAddressVar = {
  auth: 'SESAME_USERS_ADDR',
  token: 'SESAME_GRANTS_ADDR',
  jwks: 'SESAME_KEYS_ADDR',
  mgmt: 'SESAME_DIRECTORY_ADDR',
  'activity-log': 'SESAME_ACTIVITY_LOGS_ADDR',
} as const;

/**
 * All six services in one process: in-memory stores unless store URLs are set, one shared in-memory event
 * bus when no Kafka is configured, real gRPC over loopback between them, and one HTTP port for every path.
 */
export async function startEmbedded(opts: EmbeddedOptions): Promise<Embedded> {
  const host = opts.host ?? '127.0.0.1';
  const httpPort = opts.port === 0 ? await freePort() : opts.port;
  const url = `http://localhost:${httpPort}`;
  const grpcPorts: Record<string, number> = {};
  for (const { name } of serviceFactories) grpcPorts[name] = await freePort();
  const env: Record<string, string | undefined> = {
    SESAME_AUTH_URL: url,
    SESAME_ADMIN_URL: url,
    SESAME_API_URL: url,
    ...opts.env,
  };
  for (const [service, variable] of Object.entries(contractAddressVar))
    env[variable] = `127.0.0.1:${grpcPorts[service]}`;
  const bus = env.SESAME_KAFKA_BROKERS ? undefined : new MemoryEventBus();

  const logger = createLogger({ service: 'embedded', level: env.LOG_LEVEL ?? 'info' });
  const services: Record<string, ServiceModule> = {};
  const grpcServers: GrpcServer[] = [];
  let shuttingDown = false;
  let http: Listening | undefined;
  const started: ServiceModule[] = [];
  try {
    for (const { name, create } of serviceFactories) {
      const mod = await create(env, bus);
      services[name] = mod;
      const server = new GrpcServer({ logger: mod.logger, metrics: mod.metrics });
      mod.grpc?.(server);
      await server.start(grpcPorts[name]!, '127.0.0.1');
      grpcServers.push(server);
    }
    const app = createHttpApp(logger);
    const all = Object.values(services);
    app.use(
      opsRouter({
        readiness: all.flatMap((m) => m.readiness.map((r) => ({ ...r, name: `${m.name}.${r.name}` }))),
        metrics: all[0]!.metrics,
        isShuttingDown: () => shuttingDown,
      }),
    );
    for (const mod of all) {
      app.use(
        `/ops/${mod.name}`,
        opsRouter({ readiness: mod.readiness, metrics: mod.metrics, isShuttingDown: () => shuttingDown }),
      );
    }
    for (const mod of all) if (mod.routes) app.use(mod.routes);
    app.use(express.Router().all('*', (_req, res) => void res.status(404).json({ error: 'not_found' })));
    app.use(errorHandler(logger));
    http = await listen(rawRouteListener(fastRouteListener(app, all), all), httpPort, host);
    for (const mod of all) {
      await mod.start?.();
      started.push(mod);
    }
    for (const server of grpcServers) server.setServing(true);
  } catch (err) {
    await Promise.allSettled([
      http?.close(1000),
      ...grpcServers.map((s) => s.stop(1000)),
      ...Object.values(services).map((m) => m.stop()),
    ]);
    throw err;
  }

  const stop = async () => {
    shuttingDown = true;
    const timeout = 10_000;
    await Promise.all([http!.close(timeout), ...grpcServers.map((s) => s.stop(timeout))]);
    for (const mod of [...started].reverse()) await mod.stop();
    await bus?.close();
  };
  const demo = opts.seedDemo
    ? await seedDemo(url, env.SESAME_ADMIN_KEY ?? DEV_ADMIN_KEY).catch(async (err) => {
        await stop();
        throw err;
      })
    : undefined;
  const grpcAddresses = Object.fromEntries(Object.entries(grpcPorts).map(([n, p]) => [n, `127.0.0.1:${p}`]));
  return { url, port: httpPort, demo, services, grpcAddresses, stop };
}
