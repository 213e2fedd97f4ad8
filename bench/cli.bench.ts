/**
 * The admin CLI's time per call (issue 39: ≤ 0.5 s on a warm machine; it was ~2.5 s). Each way of calling it
 * is spawned CLI_RUNS (9) times after one warm-up run, for
 *   - `--version` (no request: start-up alone) and
 *   - `tenant list` against a mgmt service running in this process (one admin API round trip, as cli tests do),
 * and its median and p95 wall time are printed with the median's ratio to the 0.5 s goal. The ways: the
 * bundle itself (node cli/dist/sesame.mjs), the launcher every other way runs (node scripts/sesame.mjs; an
 * alias points here), the CLI package's bin (node_modules/.bin/sesame), `npm run sesame` (npm's own start-up on top), and — for
 * comparison — what `npm run sesame` ran before the bundle (bootstrap check, then the sources through tsx).
 *
 *   npm run bench -- cli
 *   CLI_RUNS=15 npm run bench -- cli
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { MemoryEventBus } from '@sesame/events';
import { configSchema, createMgmtService, memoryAdmins } from '@sesame/mgmt-service';
import { GrpcServer, createLogger, notImplemented, runStandalone } from '@sesame/platform';
import { keys } from '@sesame/proto';
import { repoRoot } from '@sesame/testing';
import { loadAverage, median, quantile } from './support';

const RUNS = Number(process.env.CLI_RUNS ?? 9);
const GOAL_MS = 500;
const adminKey = randomBytes(24).toString('base64url');

// A mgmt service in this process (its keys peer is a stub: `tenant list` does not use it).
const keysServer = new GrpcServer({ logger: createLogger({ service: 'keys-stub', level: 'silent' }) });
keysServer.add<keys.KeysServiceServer>(keys.KeysServiceService, {
  watchSigningKey: notImplemented,
  decryptRequestObject: notImplemented,
  rotateKeys: notImplemented,
  verifySignature: notImplemented,
  signLogoutToken: notImplemented,
} as never);
const keysPort = await keysServer.start(0, '127.0.0.1');
const mgmt = await runStandalone(
  await createMgmtService(
    configSchema.parse({
      SESAME_ENV: 'development',
      SESAME_KEYS_ADDR: `127.0.0.1:${keysPort}`,
      SESAME_ADMIN_KEY: adminKey,
      SESAME_ADMIN_BREAK_GLASS: 'on',
    }),
    {
      admins: memoryAdmins(),
      bus: new MemoryEventBus(),
      logger: createLogger({ service: 'mgmt', level: 'silent' }),
    },
  ),
  { httpPort: 0, grpcPort: 0, host: '127.0.0.1', shutdownTimeoutMs: 1000 },
);
const env = {
  ...process.env,
  SESAME_ADMIN_URL: `http://127.0.0.1:${mgmt.httpPort}`,
  SESAME_ADMIN_KEY: adminKey,
};

type Way = { name: string; file: string; args: string[] };
const node = process.execPath;
const ways: Way[] = [
  { name: 'node cli/dist/sesame.mjs', file: node, args: [join(repoRoot, 'cli/dist/sesame.mjs')] },
  { name: 'node scripts/sesame.mjs', file: node, args: [join(repoRoot, 'scripts/sesame.mjs')] },
  // The CLI package's bin, linked into the checkout's node_modules/.bin (put it on PATH, or alias it).
  { name: 'node_modules/.bin/sesame', file: join(repoRoot, 'node_modules/.bin/sesame'), args: [] },
  { name: 'npm run -s sesame --', file: 'npm', args: ['run', '-s', 'sesame', '--'] },
  {
    name: 'before: bootstrap + tsx',
    file: 'sh',
    args: ['-c', 'node scripts/bootstrap.mjs --quiet && exec node --import tsx cli/src/main.ts "$@"', 'sh'],
  },
];

const run = promisify(execFile);
/**
 * Wall time of one call, in ms; a failing call stops the bench (a fast wrong answer is no figure). Spawned
 * asynchronously: the mgmt service answering it runs on this process's event loop.
 */
async function once(way: Way, argv: string[]): Promise<number> {
  const started = performance.now();
  await run(way.file, [...way.args, ...argv], { cwd: repoRoot, env });
  return performance.now() - started;
}

await run(node, [join(repoRoot, 'scripts/sesame.mjs'), 'tenant', 'create', '--name', 'Bench'], { env });
const ms = (x: number) => `${x.toFixed(0)} ms`;
console.log(
  `CLI time per call, ${RUNS} runs each (load average ${loadAverage()}; goal ≤ ${GOAL_MS} ms a call)`,
);
console.log(
  `${'way'.padEnd(26)} ${'command'.padEnd(12)} ${'median'.padStart(8)} ${'p95'.padStart(8)} ${'median/goal'.padStart(12)}`,
);
try {
  for (const way of ways) {
    for (const argv of [['--version'], ['tenant', 'list']]) {
      await once(way, argv);
      const times: number[] = [];
      for (let i = 0; i < RUNS; i++) times.push(await once(way, argv));
      const mid = median(times);
      console.log(
        `${way.name.padEnd(26)} ${argv.join(' ').padEnd(12)} ${ms(mid).padStart(8)} ${ms(quantile(times, 0.95)).padStart(8)} ${(mid / GOAL_MS).toFixed(2).padStart(12)}`,
      );
    }
  }
} finally {
  await mgmt.stop();
  await keysServer.stop(500);
}
