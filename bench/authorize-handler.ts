/**
 * CPU per GET /authorize first visit inside the embedded platform, without sockets: auth's raw /authorize
 * route (as the embedded launcher serves it) is called with in-memory requests and responses, `BENCH_CONCURRENCY`
 * in flight, and the process's CPU time (the route, the in-memory event bus and activity-log folding the flow
 * events, GC) is divided by the pages answered. It leaves out the kernel's loopback, node's HTTP parser and the
 * load generator, which make throughput on a shared machine noisy; it keeps the code a change to /authorize
 * touches. bench/authorize.bench.ts remains the measure of the issue's goal.
 *
 *   node --import tsx bench/authorize-handler.ts   (BENCH_REQUESTS=2000 per round, BENCH_ROUNDS=10,
 *                                                  BENCH_CONCURRENCY=50; node --cpu-prof for a profile)
 *   BENCH_BASELINE=<worktree of another commit, bootstrapped> node --import tsx bench/authorize-handler.ts
 *   BENCH_DURABLE=1: each side on the durable engine in a temp directory, as `npm start` runs (else in memory)
 *
 * With BENCH_BASELINE, that checkout's embedded platform runs in the same process beside this one's (each
 * imported from its own tree, so each resolves its own workspace packages) and rounds alternate between the
 * two in ABBA order, as bench/token-handler.ts does, so load from other processes hits both alike.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { RequestListener } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { inMemoryRequest } from './in-memory-request';
import { median } from './support';

const requests = Number(process.env.BENCH_REQUESTS ?? 2000);
const rounds = Number(process.env.BENCH_ROUNDS ?? 10);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 50);

const baseline = process.env.BENCH_BASELINE;
const durable = process.env.BENCH_DURABLE === '1';
const dataDirs: string[] = [];

type Embedded = typeof import('@sesame/embedded');
/** A checkout's embedded platform with the demo app, and its raw GET /authorize route. */
async function start(root: string) {
  const { startEmbedded } = (await import(
    pathToFileURL(join(root, 'embedded/src/index.ts')).href
  )) as Embedded;
  const dataDir = durable ? mkdtempSync(join(tmpdir(), 'sesame-bench-')) : undefined;
  if (dataDir) dataDirs.push(dataDir);
  const platform = await startEmbedded({
    port: 0,
    seedDemo: true,
    ...(dataDir ? { dataDir } : {}),
    // Every request comes from 127.0.0.1: the per-IP allowance of pending sign-ins (issue 42) is lifted.
    env: { LOG_LEVEL: 'silent', SESAME_ENV: 'test', SESAME_PENDING_FLOWS_PER_IP: '0' },
  });
  const route = platform.services.auth?.rawRoutes?.find((r) => r.method === 'GET' && r.path === '/authorize');
  if (!route) throw new Error(`auth has no raw GET /authorize route in ${root}`);
  return { root, platform, demo: platform.demo!, route };
}
const sides = [await start(resolve(join(import.meta.dirname, '..')))];
if (baseline) sides.unshift(await start(resolve(baseline)));
type Side = (typeof sides)[number];
let fellThrough = 0;
const express: RequestListener = (_req, res) => {
  fellThrough++;
  res.writeHead(500).end();
};

const queries = new Map(
  sides.map((side) => [
    side,
    new URLSearchParams({
      client_id: side.demo.clientId,
      redirect_uri: side.demo.redirectUri,
      response_type: 'code',
      scope: 'openid email',
      state: randomBytes(16).toString('base64url'),
      nonce: randomBytes(16).toString('base64url'),
      code_challenge: createHash('sha256').update('verifier').digest('base64url'),
      code_challenge_method: 'S256',
    }).toString(),
  ]),
);
const headers = {
  host: '127.0.0.1',
  'user-agent':
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'accept-language': 'en-US,en;q=0.9,de;q=0.8',
  accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
};

/** One first visit through a side's route; resolves with the status once the response ends. */
const once = (side: Side): Promise<number> =>
  inMemoryRequest({ method: 'GET', url: `/authorize?${queries.get(side)}`, headers }, (req, res) =>
    side.route.handle(req, res, express),
  );

async function round(side: Side, count: number): Promise<number> {
  let next = 0;
  const start = process.cpuUsage();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next++ < count) if ((await once(side)) !== 200) throw new Error('not the identify page');
    }),
  );
  // Let the bus deliver and activity-log fold this round's events: they are part of a first visit's cost.
  await new Promise((r) => setTimeout(r, 50));
  const used = process.cpuUsage(start);
  return (used.user + used.system) / count;
}

for (const side of sides) await round(side, 3000); // warm-up: JIT, the Directory cache
const cpu = sides.map(() => [] as number[]);
for (let i = 0; i < rounds; i++) {
  const order = sides.map((_, j) => j);
  if (i % 2) order.reverse();
  for (const j of order) cpu[j]!.push(await round(sides[j]!, requests));
}
console.log(
  `GET /authorize first visit, raw route only (embedded, ${durable ? 'durable engine' : 'in-memory stores, bus and activity-log'}): ${rounds} rounds of ${requests}, ${concurrency} in flight`,
);
sides.forEach((side, j) =>
  console.log(
    `  ${baseline ? `${j === 0 ? 'baseline' : 'this'}: ` : ''}CPU per request: median ${median(cpu[j]!).toFixed(0)} µs [${cpu[j]!.map((c) => c.toFixed(0)).join(', ')}]${baseline ? `  ${side.root}` : ''}`,
  ),
);
if (baseline) {
  const ratio = median(cpu[1]!.map((x, i) => x / cpu[0]![i]!));
  console.log(
    `  this ÷ baseline, median of per-pair ratios: ${ratio.toFixed(3)} (${((ratio - 1) * 100).toFixed(1)}%)`,
  );
}
console.log(`  handed to express: ${fellThrough}`);
await Promise.all(sides.map((side) => side.platform.stop()));
for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
process.exit(0);
