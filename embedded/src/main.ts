import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, createLogger, disableAllocationSitePretenuring, exitOnSignals } from '@sesame/platform';
import { startEmbedded } from './index';
import { adminKeyFor, exposureWarning, launcherEnv, writeDemoFile } from './launcher';

/** `npm start`: all six services in this process, demo data seeded and written to .sesame/demo.json. */
// The stores share this heap with support's exports: see disableAllocationSitePretenuring.
disableAllocationSitePretenuring();
const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '../..');
const parsed = launcherEnv
  .extend({
    SESAME_DEMO_FILE: launcherEnv.shape.SESAME_DEMO_FILE.default(join(repoRoot, '.sesame/demo.json')),
  })
  .safeParse(process.env);
if (!parsed.success) {
  for (const issue of parsed.error.issues)
    process.stderr.write(`sesame: ${issue.path.join('.')}: ${issue.message}\n`);
  process.exit(78);
}
const logger = createLogger({ service: 'embedded', level: parsed.data.LOG_LEVEL });

const warning = exposureWarning(parsed.data.HOST);
if (warning) logger.warn(warning);

try {
  const started = Date.now();
  const embedded = await startEmbedded({
    port: parsed.data.PORT,
    opsPort: parsed.data.OPS_PORT,
    host: parsed.data.HOST,
    env: { ...process.env, SESAME_ADMIN_KEY: adminKeyFor(parsed.data) },
    seedDemo: true,
  });
  const demoFile = parsed.data.SESAME_DEMO_FILE;
  writeDemoFile(demoFile, { ...embedded.demo!, adminKey: embedded.adminKey });
  const stores = [
    process.env.SESAME_REDIS_URL ? 'Redis' : null,
    process.env.SESAME_KAFKA_BROKERS ? 'Kafka' : null,
    process.env.SESAME_MONGO_URL ? 'Mongo' : null,
  ].filter(Boolean);
  process.stdout.write(
    [
      '',
      `Sesame is running on ${embedded.url} (ready in ${Date.now() - started} ms)`,
      `  stores: ${stores.length ? `${stores.join(', ')} from SESAME_* URLs, in-memory for the rest` : 'in-memory (embedded default)'}`,
      `  console:   ${embedded.url}/console/  (the root URL links it, the discovery document and the mail outbox)`,
      `  discovery: ${embedded.url}/.well-known/openid-configuration`,
      `  health:    ${embedded.url}/healthz  ${embedded.url}/readyz  ${embedded.url}/ops/<service>/readyz`,
      `  metrics:   ${embedded.opsUrl}/metrics  ${embedded.opsUrl}/ops/<service>/metrics (ops port only)`,
      `  gRPC:      ${Object.entries(embedded.grpcAddresses)
        .map(([name, address]) => `${name}=${address}`)
        .join(' ')}`,
      `  demo tenant, application, API credentials and admin key (also in ${demoFile}, mode 0600):`,
      ...Object.entries({ ...embedded.demo, adminKey: embedded.adminKey }).map(
        ([k, v]) => `    ${k.padEnd(14)} ${v}`,
      ),
      '',
    ].join('\n'),
  );
  exitOnSignals(
    async () => {
      await embedded.stop();
      logger.info('sesame stopped');
    },
    logger,
    10_000,
  );
} catch (err) {
  if (err instanceof ConfigError) {
    process.stderr.write(`sesame: ${err.message}\n`);
    process.exit(78);
  }
  logger.fatal({ err }, 'failed to start');
  process.exit(1);
}
