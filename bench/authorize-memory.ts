/**
 * Where a sign-in start's memory goes (issue 42): the embedded default (all six services in one process, on
 * the durable engine in a temp directory unless BENCH_IN_MEMORY=1) serves N first visits through auth's raw
 * GET /authorize route in this process, without sockets, and prints process.memoryUsage() every
 * BENCH_EVERY starts after a forced collection: the V8 heap, external memory and array buffers beside the
 * resident set, each per start, so growth outside the JS heap (SQLite, the allocator, Buffers) shows apart.
 *
 *   node --expose-gc --import tsx bench/authorize-memory.ts   (BENCH_STARTS=50000 BENCH_EVERY=10000
 *                                                             BENCH_CONCURRENCY=50 BENCH_IN_MEMORY=1)
 *   BENCH_ROOT=<worktree of another commit, bootstrapped>: measures that checkout instead of this one.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { inMemoryRequest } from './in-memory-request';
import { demoAuthorizeQuery } from './support';

const starts = Number(process.env.BENCH_STARTS ?? 50_000);
const every = Number(process.env.BENCH_EVERY ?? 10_000);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 50);
const root = resolve(process.env.BENCH_ROOT ?? join(import.meta.dirname, '..'));
const dataDir = process.env.BENCH_IN_MEMORY === '1' ? undefined : mkdtempSync(join(tmpdir(), 'sesame-mem-'));
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');

const { startEmbedded } = (await import(
  pathToFileURL(join(root, 'embedded/src/index.ts')).href
)) as typeof import('@sesame/embedded');
const platform = await startEmbedded({
  port: 0,
  seedDemo: true,
  ...(dataDir ? { dataDir } : {}),
  // One address for every start: the per-IP allowance is lifted, so the pending caps are what bound the flows.
  env: { LOG_LEVEL: 'silent', SESAME_ENV: 'test', SESAME_PENDING_FLOWS_PER_IP: '0' },
});
const route = platform.services.auth?.rawRoutes?.find((r) => r.method === 'GET' && r.path === '/authorize');
if (!route) throw new Error('auth has no raw GET /authorize route');
const demo = platform.demo!;
// The same first request as the other authorize benches (one PKCE verifier for every start).
const query = demoAuthorizeQuery(demo, 'verifier');
const headers = {
  host: '127.0.0.1',
  'user-agent':
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'accept-language': 'en-US,en;q=0.9',
};
// A request the route hands on (none should be) ends as 404, which the rounds refuse.
const once = (): Promise<number> =>
  inMemoryRequest({ method: 'GET', url: `/authorize?${query}`, headers }, (req, res) =>
    route.handle(req, res, () => res.writeHead(404).end()),
  );

const anonymousKb = () =>
  Number(/^Anonymous:\s+(\d+)/m.exec(readFileSync('/proc/self/smaps_rollup', 'utf8'))?.[1] ?? 0);
async function sample() {
  await new Promise((r) => setTimeout(r, 200)); // the bus delivers, activity-log folds
  gc!();
  const m = process.memoryUsage();
  return { ...m, anonymous: anonymousKb() * 1024 };
}
const MB = (b: number) => (b / 2 ** 20).toFixed(1).padStart(7);
const per = (b: number, n: number) => (n ? (b / n).toFixed(0) : '-').padStart(6);

for (let i = 0; i < 2000; i++) await once(); // warm-up
const base = await sample();
console.log(`${root}: ${starts} first visits, ${dataDir ? 'durable engine' : 'in memory'}`);
console.log(
  '  starts    rss MB  anon MB  heapUsed  external  arrayBuf | bytes per start: rss anon heap ext arrayBuf',
);
console.log(
  `  ${'0'.padStart(6)} ${MB(base.rss)} ${MB(base.anonymous)} ${MB(base.heapUsed)} ${MB(base.external)} ${MB(base.arrayBuffers)}`,
);
let done = 0;
while (done < starts) {
  let next = 0;
  const batch = Math.min(every, starts - done);
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next++ < batch) if ((await once()) !== 200) throw new Error('not the identify page');
    }),
  );
  done += batch;
  const m = await sample();
  console.log(
    `  ${String(done).padStart(6)} ${MB(m.rss)} ${MB(m.anonymous)} ${MB(m.heapUsed)} ${MB(m.external)} ${MB(m.arrayBuffers)} | ${per(m.rss - base.rss, done)} ${per(m.anonymous - base.anonymous, done)} ${per(m.heapUsed - base.heapUsed, done)} ${per(m.external - base.external, done)} ${per(m.arrayBuffers - base.arrayBuffers, done)}`,
  );
}
await platform.stop();
if (dataDir) rmSync(dataDir, { recursive: true, force: true });
process.exit(0);
