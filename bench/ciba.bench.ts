/**
 * CIBA polls per second at POST /token — the hot path while requests wait: every waiting RP polls once per
 * interval — ÷ a bare node:http hello-world, in one run on this machine, token on real Redis.
 *
 *   SESAME_REDIS_URL=redis://… node --import tsx bench/ciba.bench.ts
 *     (BENCH_SECONDS=6 BENCH_CONNECTIONS=50 BENCH_ROUNDS=3 BENCH_CIBA_REQUESTS=30000)
 *
 * The servers are the token bench's children (bench/token.server.ts: token as a pod runs it, the bare
 * hello-world; bench/token.peers.ts: real jwks and mgmt on in-memory stores). Requests are started through
 * Grants.StartBackchannel first; the load cycles through them so each is polled at most once a second and
 * every answer is spec 3's HTTP 200 authorization_pending (link_sent). Rounds interleave the two phases; the
 * ratio is the median of per-round ratios. Goal (issue 10): ≥ 0.35.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { createClient } from '@sesame/platform';
import { grants } from '@sesame/proto';
import { cpuOf, median } from './support';

const seconds = Number(process.env.BENCH_SECONDS ?? 6);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const requestCount = Number(process.env.BENCH_CIBA_REQUESTS ?? 30_000);
const redisUrl = process.env.SESAME_REDIS_URL;
const here = import.meta.dirname;

if (!redisUrl) {
  console.error(
    'bench/ciba.bench.ts measures token on real Redis: set SESAME_REDIS_URL (npm run -s infra -- env)',
  );
  process.exit(2);
}

interface Run {
  rps: number;
  p99Ms: number;
  failed: number;
  cpuUs: number;
}
interface Autocannon {
  requests: { average: number; total: number };
  latency: { p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}
interface Demo {
  tenantId: string;
  appId: string;
  clientId: string;
  clientSecret: string;
}

function runChild(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
    });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`${args[0]} exited with ${code}`)),
    );
  });
}

async function serve<T>(
  script: string,
  args: string[],
  nodeArgs: string[] = [],
): Promise<T & { child: ChildProcess; pid: number }> {
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', join(here, script), ...args], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
  return { ...(JSON.parse(line) as T), child, pid: child.pid! };
}

const toRun = (r: Autocannon, cpuUs: number): Run => ({
  rps: r.requests.average,
  p99Ms: r.latency.p99,
  failed: r.non2xx + r.errors + r.timeouts,
  cpuUs: cpuUs / Math.max(1, r.requests.total),
});

/** Starts `count` CIBA requests for the demo client through Grants, 200 in flight. */
async function startRequests(grpcAddr: string, demo: Demo, count: number): Promise<string[]> {
  const client = createClient(grants.GrantsServiceClient, grpcAddr, { deadlineMs: 30_000 });
  const ids: string[] = [];
  let asked = 0;
  const workers = Array.from({ length: 200 }, async () => {
    while (asked++ < count) {
      const res = await client.startBackchannel({
        tenantId: demo.tenantId,
        appId: demo.appId,
        clientId: demo.clientId,
        scope: 'openid email',
        clientNotificationToken: '',
        expiresIn: 1800,
        flowId: 'bench',
      });
      ids.push(res.authReqId);
    }
  });
  await Promise.all(workers);
  client.close();
  return ids;
}

const show = (name: string, r: Run) =>
  console.log(
    `  ${name.padEnd(44)} ${r.rps.toFixed(0).padStart(6)} req/s  ${r.cpuUs.toFixed(0).padStart(4)} µs CPU/req  p99 ${String(r.p99Ms).padStart(4)} ms  failed ${r.failed}`,
  );

console.log(
  `CIBA poll benchmark: ${availableParallelism()} cores, ${connections} connections, ${seconds} s per phase, ${rounds} rounds, token on real Redis\n`,
);
const peers = await serve<{ keysAddr: string; directoryAddr: string; demo: Demo }>('token.peers.ts', []);
// BENCH_CPU_PROF_DIR=<dir> writes a V8 CPU profile of the token process there (open it in DevTools).
const profile = process.env.BENCH_CPU_PROF_DIR;
const token = await serve<{ url: string; grpcAddr: string }>(
  'token.server.ts',
  ['token', peers.keysAddr, peers.directoryAddr, redisUrl],
  profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : [],
);
const bare = await serve<{ url: string }>('token.server.ts', ['bare']);
const tokenPids = [token.pid, peers.pid];
const tmp = await mkdtemp(join(tmpdir(), 'sesame-ciba-bench-'));
const idsFile = join(tmp, 'ids.json');
await writeFile(idsFile, JSON.stringify(await startRequests(token.grpcAddr, peers.demo, requestCount)));

/** The same generator for both phases (ciba.poll-load.ts): identical bodies and headers, so a fair ratio. */
async function pollLoad(url: string, pids: number[], duration = seconds): Promise<Run> {
  const { clientId, clientSecret } = peers.demo;
  const args = [url, idsFile, clientId, clientSecret, String(connections), String(duration)];
  const [cpu, first] = [cpuOf(pids), cpuOf(pids.slice(0, 1))];
  const out = await runChild(['--import', 'tsx', join(here, 'ciba.poll-load.ts'), ...args]);
  const run = toRun(JSON.parse(out), cpuOf(pids) - cpu);
  if (pids.length > 1) {
    const own = (cpuOf(pids.slice(0, 1)) - first) / Math.max(1, run.rps * duration);
    console.log(`    (of which the token process alone: ${own.toFixed(0)} µs CPU/req)`);
  }
  return run;
}
const bareLoad = (duration = seconds) => pollLoad(bare.url, [bare.pid], duration);
const cibaLoad = (duration = seconds) => pollLoad(token.url, tokenPids, duration);

// Warm-up: JIT, connection pools, the Directory cache.
await bareLoad(2);
await cibaLoad(2);

const ratios: number[] = [];
const cpuRatios: number[] = [];
let failed = 0;
for (let round = 1; round <= rounds; round++) {
  console.log(`round ${round}`);
  const bareRun = await bareLoad();
  show('bare node:http hello-world', bareRun);
  const pollRun = await cibaLoad();
  show('Sesame CIBA polls (200 authorization_pending)', pollRun);
  failed += bareRun.failed + pollRun.failed;
  ratios.push(pollRun.rps / bareRun.rps);
  cpuRatios.push(bareRun.cpuUs / pollRun.cpuUs);
}
const line = (name: string, xs: number[], goal: number) => {
  const m = median(xs);
  console.log(
    `  ${name.padEnd(56)} ${m.toFixed(2)} ${m >= goal ? 'met   ' : 'MISSED'} [${xs.map((x) => x.toFixed(2)).join(', ')}]`,
  );
};
console.log('\nratios: median of rounds [per round]');
line('CIBA polls/s ÷ bare node:http/s (goal >= 0.35)', ratios, 0.35);
line('  CPU: bare µs/req ÷ Sesame µs/req (token + peers)', cpuRatios, 0.35);
console.log(`  failed requests in measured phases: ${failed} (a slow_down would count here)`);

for (const p of [token, bare, peers]) p.child.stdin?.end();
if (profile) await new Promise((r) => token.child.once('exit', r));
await rm(tmp, { recursive: true, force: true });
process.exit(0);
