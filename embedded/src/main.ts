import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, createLogger, exitOnSignals } from '@sesame/platform';
import { z } from 'zod';
import { startEmbedded } from './index';

/** `npm start`: all six services in this process, demo data seeded and written to .sesame/demo.json. */
const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '../..');
const launcherEnv = z.object({
  /** 0 lets the OS pick a free port; the URL printed says which. */
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  LOG_LEVEL: z.string().default('info'),
  /** Where the demo credentials are written (tests point it elsewhere). */
  SESAME_DEMO_FILE: z.string().default(join(repoRoot, '.sesame/demo.json')),
});
const parsed = launcherEnv.safeParse(process.env);
if (!parsed.success) {
  for (const issue of parsed.error.issues)
    process.stderr.write(`sesame: ${issue.path.join('.')}: ${issue.message}\n`);
  process.exit(78);
}
const logger = createLogger({ service: 'embedded', level: parsed.data.LOG_LEVEL });

try {
  const started = Date.now();
  const embedded = await startEmbedded({
    port: parsed.data.PORT,
    host: parsed.data.HOST,
    env: process.env,
    seedDemo: true,
  });
  const demoFile = parsed.data.SESAME_DEMO_FILE;
  mkdirSync(dirname(demoFile), { recursive: true });
  writeFileSync(demoFile, `${JSON.stringify(embedded.demo, null, 2)}\n`, { mode: 0o600 });
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
      `  discovery: ${embedded.url}/.well-known/openid-configuration`,
      `  health:    ${embedded.url}/healthz  ${embedded.url}/readyz  ${embedded.url}/ops/<service>/readyz`,
      `  gRPC:      ${Object.entries(embedded.grpcAddresses)
        .map(([name, address]) => `${name}=${address}`)
        .join(' ')}`,
      `  demo tenant, application and API credentials (also in ${demoFile}):`,
      ...Object.entries(embedded.demo ?? {}).map(([k, v]) => `    ${k.padEnd(14)} ${v}`),
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
