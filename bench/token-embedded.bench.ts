/**
 * client_credentials at POST /token ÷ a bare node:http hello-world, in many short interleaved runs: issue 36's
 * figure (the embedded default, all six services in one process on the durable engine, as `npm start` runs
 * them: ≥ 0.3) and issue 42's (the same ≥ 0.3; token standalone, in memory, as a pod runs it: ≥ 0.5). The
 * token bench (bench/token.bench.ts) reads the same figures in three rounds among many other phases, and its
 * rounds swing from 0.23 to 0.41; this one runs only these three servers, so a run of twelve rounds takes
 * three minutes and its median can decide a goal that close.
 *
 *   npm run bench -- token-embedded   (BENCH_ROUNDS=12 BENCH_SECONDS=5 BENCH_CONNECTIONS=50)
 *
 * Every server runs in its own child process (bench/embedded.server.ts tuned as `npm start`'s main,
 * bench/token.server.ts for bare and token, bench/token.peers.ts for token's jwks and mgmt), the load
 * generator is wrk (one thread, the POST through a Lua script), everything shares this machine's cores. A
 * round runs the three in one order and the next round in the reverse order, so the slot a server runs in
 * cancels out over two rounds. Prints each run (req/s, CPU µs per request of the serving processes), the
 * median of the per-round ratios with their quartiles, and the load average.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureLoadGenerator } from './load-generator';
import { type LoadResult, loadAverage, median, quantile, serve, wrkLoad } from './support';

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const rounds = Number(process.env.BENCH_ROUNDS ?? 12);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
await ensureLoadGenerator('wrk');

const dataDir = await mkdtemp(join(tmpdir(), 'sesame-token-embedded-'));
const bare = await serve<{ url: string }>('token.server.ts', ['bare']);
const embedded = await serve<{ url: string; demo: Record<string, string> }>(
  'embedded.server.ts',
  ['{}', dataDir],
  [],
  { BENCH_AS_MAIN: '1' },
);
const peers = await serve<{ keysAddr: string; directoryAddr: string; demo: Record<string, string> }>(
  'token.peers.ts',
  [],
);
const standalone = await serve<{ url: string }>('token.server.ts', [
  'token',
  peers.keysAddr,
  peers.directoryAddr,
]);

const form = (demo: Record<string, string>) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams({
    grant_type: 'client_credentials',
    client_id: demo.credentialsId!,
    client_secret: demo.apiSecret!,
    scope: 'svc_admin_api',
  }).toString(),
});
const servers = {
  bare: { url: bare.url, pids: [bare.pid], request: undefined },
  embedded: { url: `${embedded.url}/token`, pids: [embedded.pid], request: form(embedded.demo) },
  standalone: { url: standalone.url, pids: [standalone.pid, peers.pid], request: form(peers.demo) },
};
type Side = keyof typeof servers;
const run = (side: Side, duration = seconds): Promise<LoadResult> =>
  wrkLoad(servers[side].url, servers[side].pids, {
    connections,
    seconds: duration,
    request: servers[side].request,
  });

console.log(
  `client_credentials ÷ bare node:http: ${rounds} rounds of ${seconds} s per server, wrk -t1 -c${connections}; load average ${loadAverage()}`,
);
for (const side of Object.keys(servers) as Side[]) await run(side, 2); // warm-up
const ratios: Record<'embedded' | 'standalone', number[]> = { embedded: [], standalone: [] };
let failed = 0;
for (let round = 0; round < rounds; round++) {
  const order: Side[] =
    round % 2 === 0 ? ['bare', 'embedded', 'standalone'] : ['standalone', 'embedded', 'bare'];
  const got = {} as Record<Side, LoadResult>;
  for (const side of order) {
    got[side] = await run(side);
    failed += got[side].failed;
  }
  ratios.embedded.push(got.embedded.rps / got.bare.rps);
  ratios.standalone.push(got.standalone.rps / got.bare.rps);
  const row = (side: Side) => `${side} ${got[side].rps.toFixed(0)} req/s ${got[side].cpuUs.toFixed(1)} µs`;
  console.log(
    `  round ${String(round + 1).padStart(2)}: ${order.map(row).join(', ')}; load average ${loadAverage()}`,
  );
}
const list = (xs: number[]) => `[${xs.map((x) => x.toFixed(2)).join(', ')}]`;
const summary = (xs: number[], goal: number) =>
  `median ${median(xs).toFixed(2)} (quartiles ${quantile(xs, 0.25).toFixed(2)}–${quantile(xs, 0.75).toFixed(2)}) ${list(xs)} (goal ≥ ${goal})`;
console.log(`the embedded default ÷ bare: ${summary(ratios.embedded, 0.3)}`);
console.log(`token standalone, in memory ÷ bare: ${summary(ratios.standalone, 0.5)}`);
console.log(`failed requests: ${failed}; load average now ${loadAverage()}`);
await Promise.all([bare.stop(), embedded.stop(), standalone.stop(), peers.stop()]);
await rm(dataDir, { recursive: true, force: true });
process.exit(0);
