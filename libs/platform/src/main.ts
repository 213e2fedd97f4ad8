import { type BaseConfig, ConfigError, tracingConfigOf } from './config';
import { type GrpcTlsFiles, grpcTlsOf } from './grpc-tls';
import { trustedProxiesOf } from './http';
import { createLogger } from './logger';
import { type ServiceModule, exitOnSignals, runStandalone } from './service';
import { type TracingHandle, exportWarnings, startTracing } from './tracing';

/**
 * The whole of a service's `main.ts`: parse config (a bad variable stops the process with its name),
 * build the service, serve it, drain on SIGTERM.
 */
export async function runMain<C extends BaseConfig>(
  name: string,
  load: () => C,
  create: (config: C) => Promise<ServiceModule>,
): Promise<void> {
  let config: C;
  let grpcTls: GrpcTlsFiles | undefined;
  try {
    config = load();
    grpcTls = grpcTlsOf(config);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${name}: ${err.message}\n`);
      process.exit(78); // EX_CONFIG
    }
    throw err;
  }
  const bootLogger = createLogger({ service: name, level: config.LOG_LEVEL });
  try {
    // Before anything is built: the servers, clients, buses and loggers look once whether tracing is on.
    const tracingConfig = tracingConfigOf(config, name);
    let tracing: TracingHandle | undefined;
    if (tracingConfig) {
      tracing = await startTracing(tracingConfig, {
        onExportFailure: exportWarnings((fields, message) =>
          bootLogger.warn({ url: tracingConfig.url, ...fields }, message),
        ),
      });
      bootLogger.info(
        { url: tracingConfig.url, sampler: tracingConfig.sampler, ratio: tracingConfig.ratio },
        'tracing on',
      );
    }
    const mod = await create(config);
    const running = await runStandalone(mod, {
      httpPort: config.HTTP_PORT,
      grpcPort: config.GRPC_PORT,
      host: config.HTTP_HOST,
      // OPS_PORT 0: no ops port (health and readiness on HTTP_PORT, no metrics); the chart sets one.
      ...(config.OPS_PORT ? { opsPort: config.OPS_PORT } : {}),
      shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS,
      grpcTls,
      trustedProxies: trustedProxiesOf(config),
      shutdownDelayMs: config.SHUTDOWN_DELAY_MS,
      readinessIntervalMs: config.READINESS_INTERVAL_MS,
    });
    const stop = async () => {
      await running.stop();
      await tracing?.shutdown();
    };
    exitOnSignals(stop, mod.logger, config.SHUTDOWN_DELAY_MS + config.SHUTDOWN_TIMEOUT_MS);
  } catch (err) {
    bootLogger.fatal({ err }, `${name} failed to start`);
    process.exit(1);
  }
}
