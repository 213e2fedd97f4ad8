/**
 * A/B of POST /token client_credentials between this checkout and another one (a `git worktree` of the
 * baseline commit, bootstrapped), on a shared machine:
 *
 *   BENCH_BASELINE=/path/to/baseline-worktree node --import tsx bench/token-ab.ts
 *     (BENCH_SECONDS=5 BENCH_PAIRS=6 BENCH_CONNECTIONS=50)
 *
 * Both sides run at once, each its own token process (bench/token.server.ts of its checkout) and peers
 * (bench/token.peers.ts of its checkout), so neither pays for starting while the other is measured. The load
 * alternates between them in pairs, ABBA order (baseline, this, this, baseline, ...), so a drift in other
 * load on the machine hits both sides alike. It prints each run, then the medians of req/s and of CPU µs per
 * request (token + its peers, from /proc) per side, and the median of the per-pair ratios.
 *
 * BENCH_DURABLE=1 runs both token processes on the durable embedded engine (each its own temp data dir), as
 * `npm start` runs it, instead of the in-memory KV.
 *
 * BENCH_TOGETHER=1 loads both sides at the same time in each pair (BENCH_CONNECTIONS=25 each): they share
 * whatever else the machine does second by second and compete for the same cores, so the cheaper side
 * answers more. On a heavily shared machine this ratio moves far less than sequential runs do.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { cpuOf, median } from './support';

const baseline = process.env.BENCH_BASELINE;
if (!baseline) {
  console.error('usage: BENCH_BASELINE=<baseline worktree> node --import tsx bench/token-ab.ts');
  process.exit(2);
}
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const pairs = Number(process.env.BENCH_PAIRS ?? 6);
const together = process.env.BENCH_TOGETHER === '1';
const durable = process.env.BENCH_DURABLE === '1';
const connections = Number(process.env.BENCH_CONNECTIONS ?? (together ? 25 : 50));
const autocannonBin = createRequire(import.meta.url).resolve('autocannon/autocannon.js');

interface Side {
  name: string;
  url: string;
  pids: number[];
  body: string;
  children: ChildProcess[];
}
interface Run {
  rps: number;
  cpuUs: number;
  failed: number;
}

async function serve<T>(root: string, script: string, args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'bench', script), ...args], {
    cwd: root,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((ok, fail) => {
    createInterface({ input: child.stdout! }).once('line', ok);
    child.once('exit', (code) => fail(new Error(`${root}: ${script} exited with ${code}`)));
  });
  return { ...(JSON.parse(line) as T), child };
}

async function start(name: string, root: string): Promise<Side> {
  const peers = await serve<{
    keysAddr: string;
    directoryAddr: string;
    demo: { credentialsId: string; apiSecret: string };
  }>(root, 'token.peers.ts', []);
  const token = await serve<{ url: string }>(
    root,
    'token.server.ts',
    durable
      ? [
          'token-durable',
          peers.keysAddr,
          peers.directoryAddr,
          await mkdtemp(join(tmpdir(), 'sesame-token-ab-')),
        ]
      : ['token', peers.keysAddr, peers.directoryAddr],
  );
  const body = new URLSearchParams({
    grant_type: 'client_credentials',
    client_id: peers.demo.credentialsId,
    client_secret: peers.demo.apiSecret,
    scope: 'svc_admin_api',
  }).toString();
  return {
    name,
    url: token.url,
    pids: [token.child.pid!, peers.child.pid!],
    body,
    children: [token.child, peers.child],
  };
}

function load(side: Side, duration: number): Promise<Run> {
  const args = [autocannonBin, '-j', '-c', String(connections), '-d', String(duration)];
  args.push('-m', 'POST', '-H', 'content-type=application/x-www-form-urlencoded', '-b', side.body, side.url);
  const before = cpuOf(side.pids);
  return new Promise((ok, fail) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
    });
    child.on('error', fail);
    child.on('exit', (code) => {
      if (code !== 0) return fail(new Error(`autocannon exited with ${code}`));
      const r = JSON.parse(out);
      ok({
        rps: r.requests.average,
        cpuUs: (cpuOf(side.pids) - before) / Math.max(1, r.requests.total),
        failed: r.non2xx + r.errors + r.timeouts,
      });
    });
  });
}

const a = await start('baseline', resolve(baseline));
const b = await start('this', process.cwd());
console.log(
  `token client_credentials A/B: ${pairs} pairs of ${seconds} s${together ? ', both sides loaded at once' : ''}, autocannon -c ${connections}; baseline ${resolve(baseline)}, this ${process.cwd()}\n`,
);
for (const side of [a, b]) await load(side, 2); // warm-up: JIT, the Directory cache
const runs = new Map<Side, Run[]>([
  [a, []],
  [b, []],
]);
let failed = 0;
const record = (pair: number, side: Side, run: Run) => {
  runs.get(side)!.push(run);
  failed += run.failed;
  console.log(
    `  pair ${pair + 1} ${side.name.padEnd(8)} ${run.rps.toFixed(0).padStart(6)} req/s  ${run.cpuUs.toFixed(0).padStart(4)} µs CPU/req`,
  );
};
for (let pair = 0; pair < pairs; pair++) {
  if (together) {
    const [ra, rb] = await Promise.all([load(a, seconds), load(b, seconds)]);
    record(pair, a, ra);
    record(pair, b, rb);
  } else for (const side of pair % 2 ? [b, a] : [a, b]) record(pair, side, await load(side, seconds));
}
const ra = runs.get(a)!;
const rb = runs.get(b)!;
const perPair = (f: (r: Run) => number) => ra.map((r, i) => f(rb[i]!) / f(r));
console.log('\nmedians');
for (const [side, rs] of runs)
  console.log(
    `  ${side.name.padEnd(8)} ${median(rs.map((r) => r.rps)).toFixed(0)} req/s  ${median(rs.map((r) => r.cpuUs)).toFixed(1)} µs CPU/req`,
  );
const rpsRatio = median(perPair((r) => r.rps));
const cpuRatio = median(perPair((r) => r.cpuUs));
console.log(
  `  this ÷ baseline, median of per-pair ratios: req/s ${rpsRatio.toFixed(3)} (${((rpsRatio - 1) * 100).toFixed(1)}%), CPU/req ${cpuRatio.toFixed(3)} (${((cpuRatio - 1) * 100).toFixed(1)}%)`,
);
console.log(`  failed requests: ${failed}`);
for (const side of [a, b]) for (const child of side.children) child.stdin?.end();
process.exit(0);
