import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EmbeddedStoreError } from '@sesame/embedded-store';
import {
  ConfigError,
  boundHeapGrowth,
  createLogger,
  disableAllocationSitePretenuring,
  exitOnSignals,
} from '@sesame/platform';
import { type StartFacts, logBanner, logFormat, prettyBanner } from './banner';
import { LauncherArgsError, parseLauncherArgs, resetData, storeChoice, terminalConfirm } from './data-dir';
import { startEmbedded } from './index';
import {
  adminKeyFor,
  exposureWarning,
  launcherEnv,
  readDemoFile,
  removePlatformFile,
  writeDemoFile,
  writeOpsFile,
  writePlatformFile,
} from './launcher';
import { certificateNames, ensureLocalTls } from './local-tls';

/**
 * `npm start`: all six services in this process on the durable engine in .sesame/data (flags and
 * SESAME_DATA_DIR move it; --memory or SESAME_STORES=memory keep nothing), demo data seeded on an empty store
 * and kept in .sesame/demo.json.
 */
// The stores share this heap with support's exports: see disableAllocationSitePretenuring. One process must
// also stay small under a flood of sign-in starts: see boundHeapGrowth.
disableAllocationSitePretenuring();
boundHeapGrowth();
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
const refuse = (message: string, code = 1): never => {
  process.stderr.write(`sesame: ${message}\n`);
  process.exit(code);
};
let choice: ReturnType<typeof storeChoice>;
let args: ReturnType<typeof parseLauncherArgs>;
try {
  args = parseLauncherArgs(process.argv.slice(2));
  choice = storeChoice(args, process.env, repoRoot);
} catch (err) {
  refuse((err as Error).message, 2);
}
const demoFile = parsed.data.SESAME_DEMO_FILE;
if (args!.fresh && choice!.kind === 'embedded') {
  try {
    const outcome = await resetData({
      dataDir: choice!.dir,
      demoFile,
      yes: args!.yes,
      confirm: terminalConfirm(),
    });
    if (outcome === 'declined') refuse('nothing deleted; not started', 1);
    if (outcome === 'deleted')
      process.stdout.write(`Deleted ${choice!.dir} and ${demoFile}: starting fresh\n`);
  } catch (err) {
    refuse((err as Error).message);
  }
}
const dataDir = choice!.kind === 'embedded' ? choice!.dir : undefined;

const warning = exposureWarning(parsed.data.HOST);
if (warning) logger.warn(warning);

try {
  const started = Date.now();
  // --https: the local CA and server certificate, made on the first such start and reused after.
  const tls =
    args!.https || parsed.data.SESAME_HTTPS
      ? await ensureLocalTls({
          dir: parsed.data.SESAME_TLS_DIR ?? join(dirname(demoFile), 'tls'),
          names: certificateNames(parsed.data.HOST),
        })
      : undefined;
  if (tls?.created.includes('ca')) logger.info({ caFile: tls.caFile }, 'made a local CA for --https');
  const embedded = await startEmbedded({
    port: parsed.data.PORT,
    opsPort: parsed.data.OPS_PORT,
    host: parsed.data.HOST,
    env: { ...process.env, SESAME_ADMIN_KEY: adminKeyFor(parsed.data) },
    seedDemo: true,
    // The sample app's back-channel receiver on localhost:3000 (`npm run example`), where mgmt allows it.
    demoBackchannelLogout: true,
    ...(dataDir ? { dataDir } : {}),
    // Clients may present a certificate (RFC 8705: self_signed_tls_client_auth, certificate-bound tokens); none
    // is required and none is refused at the handshake: the token endpoints decide what one proves.
    ...(tls ? { tls: { key: tls.key, cert: tls.cert, ca: tls.ca, requestCert: true } } : {}),
  });
  // Seeded now, or kept from the start that seeded this store (its ids and secrets are in the demo file only).
  const demo = embedded.demo ?? readDemoFile(demoFile);
  // The issuer is this start's URL (the port may change between starts): the sample app reads it here.
  if (demo) writeDemoFile(demoFile, { ...demo, adminKey: embedded.adminKey, issuer: embedded.url });
  if (dataDir) writeOpsFile(dataDir, { pid: process.pid, opsUrl: embedded.opsUrl });
  // The CLI finds this start's port here (`npm run sesame` needs no --url when PORT is not 8080).
  writePlatformFile(demoFile, { adminUrl: embedded.url, issuer: embedded.url, pid: process.pid });
  const stores = [
    process.env.SESAME_REDIS_URL ? 'Redis' : null,
    process.env.SESAME_KAFKA_BROKERS ? 'Kafka' : null,
    process.env.SESAME_MONGO_URL ? 'Mongo' : null,
  ].filter((s): s is string => s !== null);
  const facts: StartFacts = {
    url: embedded.url,
    readyMs: Date.now() - started,
    opsUrl: embedded.opsUrl,
    grpcAddresses: embedded.grpcAddresses,
    servers: stores,
    ...(dataDir ? { dataDir } : {}),
    demoFile,
    demoKept: demo !== undefined,
    ...(demo ? { ownerEmail: demo.ownerEmail } : {}),
    ...(embedded.outboxUrl ? { outboxUrl: embedded.outboxUrl } : {}),
    ...(tls ? { caFile: tls.caFile } : {}),
    ...(args!.showSecrets ? { secrets: { ...demo, adminKey: embedded.adminKey } } : {}),
  };
  // Human lines on a terminal (or SESAME_LOG_FORMAT=pretty); one JSON log line otherwise, never with a secret.
  if (logFormat(parsed.data.SESAME_LOG_FORMAT, process.stdout.isTTY === true) === 'pretty')
    process.stdout.write(prettyBanner(facts));
  // At info whatever LOG_LEVEL says: the start is announced as it always was (tests wait for this line).
  else logBanner(createLogger({ service: 'embedded' }), facts);
  exitOnSignals(
    async () => {
      await embedded.stop();
      removePlatformFile(demoFile, process.pid);
      logger.info('sesame stopped');
    },
    logger,
    10_000,
  );
} catch (err) {
  // Another Sesame holds the data directory, or it was written by a newer Sesame: the engine says which.
  if (err instanceof EmbeddedStoreError) refuse(err.message);
  if (err instanceof ConfigError) {
    process.stderr.write(`sesame: ${err.message}\n`);
    process.exit(78);
  }
  logger.fatal({ err }, 'failed to start');
  process.exit(1);
}
