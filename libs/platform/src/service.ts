import type express from 'express';
import { type FastRoute, fastRouteListener } from './fast-routes';
import { GrpcServer } from './grpc';
import type { GrpcTlsFiles } from './grpc-tls';
import {
  type Listening,
  type Readiness,
  type TrustProxy,
  compileTrust,
  createHttpApp,
  errorHandler,
  listen,
  opsRouter,
} from './http';
import { tracedListener } from './http-tracing';
import type { Logger } from './logger';
import type { ServiceMetrics } from './metrics';
import { type RawRoute, rawRouteListener } from './raw-routes';
import { ReadinessMonitor, type ReadinessReport } from './readiness';

/**
 * What a service is, independent of how it is hosted: its public routes, its gRPC services, what must be
 * reachable for it to be ready, and its background work. `runStandalone` hosts one per process (as in
 * Kubernetes); the embedded launcher hosts all six in one process.
 */
export interface ServiceModule {
  name: string;
  logger: Logger;
  metrics: ServiceMetrics;
  /** Public HTTP routes; absent for internal services (they still serve the ops endpoints). */
  routes?: express.Router;
  /**
   * Hot static GETs (also mounted in `routes`) that hosts answer ahead of express: wrap the app with
   * fastRouteListener(app, modules).
   */
  fastRoutes?: FastRoute[];
  /** Hot dynamic endpoints (also mounted in `routes`) that hosts answer ahead of express: rawRouteListener. */
  rawRoutes?: RawRoute[];
  /**
   * What answers a path no route knows (the last handler of the public port); absent: the host's default. In
   * the embedded host the first module that has one answers for every service.
   */
  notFound?: express.RequestHandler;
  /** Registers this service's gRPC implementations. */
  grpc?: (server: GrpcServer) => void;
  readiness: Readiness[];
  /** Background work (consumers, key streams), started once the servers listen. */
  start?: () => Promise<void>;
  /** Stops background work (committing offsets), then closes stores. Called after servers stop accepting. */
  stop: () => Promise<void>;
}

export interface RunningService {
  httpPort: number;
  grpcPort: number;
  /** The ops port (/healthz, /readyz, /metrics) when one was asked for. */
  opsPort?: number;
  stop: () => Promise<void>;
}

export interface StandaloneOptions {
  httpPort: number;
  grpcPort: number;
  host?: string;
  shutdownTimeoutMs: number;
  /**
   * When set (0: one the OS picks), /healthz, /readyz and /metrics are served on this port, so an ingress in
   * front of the public port never exposes metrics. /healthz and /readyz answer on the public port as well;
   * /metrics never does (unset: no metrics at all).
   */
  opsPort?: number;
  /** Proxies whose X-Forwarded-For is believed (trustedProxiesOf); absent: none. */
  trustedProxies?: string[];
  /** mTLS for the gRPC server (and caller authorization); absent: plaintext. */
  grpcTls?: GrpcTlsFiles;
  /**
   * After SIGTERM: how long the pod reports NOT_SERVING (gRPC health, /readyz) while still serving, so
   * endpoint removal reaches every caller before the servers stop accepting. Default 0.
   */
  shutdownDelayMs?: number;
  /** How often the readiness checks run and move the gRPC health status (also on every /readyz). Default 5 s. */
  readinessIntervalMs?: number;
}

export function buildHttpApp(
  mod: ServiceModule,
  isShuttingDown: () => boolean,
  withOps = true,
  trust?: TrustProxy,
  check?: () => Promise<ReadinessReport>,
): express.Express {
  const app = createHttpApp(mod.logger, mod.metrics, trust);
  // Health and readiness may share the public port; metrics never do (they go on the ops port only).
  if (withOps)
    app.use(
      opsRouter({
        readiness: mod.readiness,
        metrics: mod.metrics,
        isShuttingDown,
        logger: mod.logger,
        check,
        serveMetrics: false,
      }),
    );
  if (mod.routes) app.use(mod.routes);
  if (mod.notFound) app.use(mod.notFound);
  app.use(errorHandler(mod.logger, mod.metrics));
  return app;
}

/** Runs one service with its own HTTP and gRPC servers; `stop` drains both within the timeout. */
export async function runStandalone(mod: ServiceModule, opts: StandaloneOptions): Promise<RunningService> {
  let shuttingDown = false;
  const grpcServer = new GrpcServer({ logger: mod.logger, metrics: mod.metrics }, { tls: opts.grpcTls });
  mod.grpc?.(grpcServer);
  // One readiness truth: the /readyz checks set the gRPC health status that the readiness probe asks.
  const monitor = new ReadinessMonitor(
    mod.readiness,
    (ready) => {
      if (shuttingDown) return;
      grpcServer.setServing(ready);
      if (ready) mod.logger.info('ready: reporting SERVING');
      else mod.logger.warn('not ready: reporting NOT_SERVING');
    },
    opts.readinessIntervalMs ?? 5000,
  );
  const check = () => monitor.check();
  const grpcPort = await grpcServer.start(opts.grpcPort, opts.host);
  const separateOps = opts.opsPort !== undefined && (opts.opsPort === 0 || opts.opsPort !== opts.httpPort);
  let http: Listening;
  let ops: Listening | undefined;
  try {
    const trust = compileTrust(opts.trustedProxies ?? []);
    // /healthz and /readyz stay on the public port too; /metrics only on the ops port.
    const app = buildHttpApp(mod, () => shuttingDown, true, trust, check);
    http = await listen(
      tracedListener(rawRouteListener(fastRouteListener(app, [mod]), [mod])),
      opts.httpPort,
      opts.host,
    );
    if (separateOps) {
      const opsApp = createHttpApp(mod.logger);
      opsApp.use(
        opsRouter({
          readiness: mod.readiness,
          metrics: mod.metrics,
          isShuttingDown: () => shuttingDown,
          logger: mod.logger,
          check,
        }),
      );
      ops = await listen(opsApp, opts.opsPort!, opts.host);
    }
  } catch (err) {
    grpcServer.server.forceShutdown();
    throw err;
  }
  await mod.start?.();
  await monitor.start();
  mod.logger.info({ httpPort: http.port, grpcPort }, `${mod.name} service started`);
  return {
    httpPort: http.port,
    grpcPort,
    ...(ops ? { opsPort: ops.port } : {}),
    stop: async () => {
      // NOT_SERVING first, then keep serving while endpoint removal propagates, then drain and close.
      shuttingDown = true;
      monitor.stop();
      grpcServer.setServing(false);
      if (opts.shutdownDelayMs) await new Promise((r) => setTimeout(r, opts.shutdownDelayMs));
      await Promise.all([http.close(opts.shutdownTimeoutMs), grpcServer.stop(opts.shutdownTimeoutMs)]);
      await mod.stop();
      await ops?.close(1000);
      mod.logger.info(`${mod.name} service stopped`);
    },
  };
}

/**
 * SIGTERM/SIGINT: stop accepting, drain, commit, close — and exit non-zero if that takes longer than the bound.
 */
export function exitOnSignals(stop: () => Promise<void>, logger: Logger, timeoutMs: number): void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      logger.error({ timeoutMs }, 'shutdown did not finish in time; exiting');
      process.exit(1);
    }, timeoutMs + 2000);
    force.unref();
    stop().then(
      () => process.exit(0),
      (err) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}
