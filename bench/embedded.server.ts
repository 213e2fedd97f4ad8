/**
 * Child process of bench/authorize.bench.ts and bench/signin.bench.ts: the embedded platform (all six
 * services in one process, as `npm start` runs them) seeded with the demo tenant, so its CPU is its own and
 * the load generator's event loop never delays it. The first argument is a JSON object of extra environment
 * (store URLs for real servers; none for the in-memory default); the optional second is a data directory:
 * with it the platform runs on the durable engine there (as `npm start` does), without it in memory.
 * Prints one JSON line ({url, demo, startMs: how long startEmbedded took}) once it serves, then runs until
 * stdin closes, and then stops the platform cleanly (Kafka outbox flushed, engine closed).
 */
import { startEmbedded } from '@sesame/embedded';
import {
  baseConfigSchema,
  boundHeapGrowth,
  disableAllocationSitePretenuring,
  loadConfig,
  tracingConfigOf,
} from '@sesame/platform';
import { startTracing } from '@sesame/platform/tracing';

// BENCH_AS_MAIN=1 (bench/embedded-size.bench.ts): V8 tuned as embedded/src/main.ts (`npm start`) tunes it.
if (process.env.BENCH_AS_MAIN === '1') {
  disableAllocationSitePretenuring();
  boundHeapGrowth();
}

// OTEL_EXPORTER_OTLP_ENDPOINT (and the sampler variables) in the bench's environment: the platform traces, as
// a service's main would (the tracing overhead figure of docs/operations.md).
const otel = Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith('OTEL_')));
const tracingConfig = tracingConfigOf(loadConfig(baseConfigSchema, otel), 'sesame');
const tracing = tracingConfig ? await startTracing(tracingConfig) : undefined;
const extraEnv = JSON.parse(process.argv[2] ?? '{}') as Record<string, string>;
const dataDir = process.argv[3] || undefined;
const started = performance.now();
const platform = await startEmbedded({
  port: 0,
  seedDemo: true,
  ...(dataDir ? { dataDir } : {}),
  env: { LOG_LEVEL: 'silent', SESAME_ENV: 'test', ...extraEnv },
});
const startMs = Math.round(performance.now() - started);
process.stdout.write(`${JSON.stringify({ url: platform.url, demo: platform.demo, startMs })}\n`);
process.stdin.resume();
process.stdin.on('end', async () => {
  await platform.stop();
  await tracing?.shutdown(); // the last batch of spans reaches the collector
  process.exit(0);
});
