/**
 * client_credentials at POST /token, untraced against traced (issue 40: traced ≥ 0.9 of untraced at 10 %
 * sampling), in short alternating pairs for a shared machine; the figure of bench/token.bench.ts without its
 * other phases.
 *
 *   node --import tsx bench/token-tracing.ts   (BENCH_SECONDS=4 BENCH_PAIRS=6 BENCH_CONNECTIONS=50
 *                                              BENCH_TRACING_RATIO=0.1; BENCH_LOADGEN=autocannon instead
 *                                              of wrk; BENCH_TRACING_ENDPOINT=<url>: export
 *                                              there instead of to the stand-in collector;
 *                                              BENCH_CPU_PROF=<dir>: a V8 CPU profile of each token process
 *                                              in <dir>/untraced and <dir>/traced, for bench/cpu-profile-top.ts;
 *                                              BENCH_RATE=<req/s>: both sides held to that rate, see below;
 *                                              BENCH_FRESH=1: two new token processes for every pair)
 *
 * Two token processes as a pod runs them (bench/token.server.ts, in-memory KV) share one peers process
 * (bench/token.peers.ts: the real jwks and mgmt); the second traces, exporting over OTLP to
 * bench/otlp-sink.ts, a stand-in collector in a process of its own that decodes every batch. Pairs run in
 * ABBA order. Prints each run (req/s, CPU µs per request of token + peers from /proc, and the system part of
 * it: the kernel's work for sockets), the spans the sink
 * received per traced request, and the medians of the per-pair ratios traced ÷ untraced, with the load average.
 *
 * Flat out (the default), a slower side can also pay more per request for the same socket work: wrk, sharing
 * the two cores, sleeps more often between answers, and each answer's write then wakes it. With BENCH_RATE
 * both sides are driven at that rate (below both their limits) by a paced node:http client in this process
 * (support's pacedLoad, as bench/token-dpop.bench.ts drives its rows): both pay the same fixed costs, and CPU
 * per request untraced ÷ traced is the share of the work tracing adds. (At 6,000 req/s it read 0.85, against
 * 0.88 flat out; with fresh processes for every pair, below, 0.91 and 0.91: docs/operations.md, Tracing.)
 *
 * By default one untraced and one traced process serve every pair, so a run's pairs measure one draw of what
 * a process's start decides (where V8 and the kernel put its code and heap, which core its threads settle
 * on): fresh processes of the same code read 42–60 µs (untraced) and 47–77 µs (traced) of main-thread CPU per
 * request at 6,000 req/s, each steady within itself. With BENCH_FRESH=1 each pair starts two new processes
 * (warmed up for 2 s each, then measured), so the pairs sample that too and their median averages it out;
 * each process then also holds only the tokens of its own pair in its in-memory KV.
 */
import { join } from 'node:path';
import { describeLoad, ensureLoadGenerator, loadGeneratorName } from './load-generator';
import { type SinkCounts, sinkCounts } from './otlp-sink';
import {
  type LoadResult,
  type Served,
  cpuOf,
  load,
  loadAverage,
  median,
  pacedLoad,
  serve,
  wrkLoad,
} from './support';

const seconds = Number(process.env.BENCH_SECONDS ?? 4);
const pairs = Number(process.env.BENCH_PAIRS ?? 6);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const ratio = process.env.BENCH_TRACING_RATIO ?? '0.1';
const rate = Number(process.env.BENCH_RATE ?? 0);
const fresh = process.env.BENCH_FRESH === '1';

const peers = await serve<{ keysAddr: string; directoryAddr: string; demo: Record<string, string> }>(
  'token.peers.ts',
  [],
);
const sink = process.env.BENCH_TRACING_ENDPOINT
  ? undefined
  : await serve<{ url: string }>('otlp-sink.ts', []);
const endpoint = process.env.BENCH_TRACING_ENDPOINT ?? sink!.url;
const tokenArgs = ['token', peers.keysAddr, peers.directoryAddr];
const profDir = process.env.BENCH_CPU_PROF;
const prof = (side: string) => (profDir ? ['--cpu-prof', '--cpu-prof-dir', join(profDir, side)] : []);
type Token = { url: string } & Served;
/** The two token processes of a pair: made once, or for every pair with BENCH_FRESH (see the header). */
const startBoth = async (): Promise<{ untraced: Token; traced: Token }> => ({
  untraced: await serve<{ url: string }>('token.server.ts', tokenArgs, prof('untraced')),
  traced: await serve<{ url: string }>('token.server.ts', tokenArgs, prof('traced'), {
    OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
    OTEL_TRACES_SAMPLER_ARG: ratio,
  }),
});
let { untraced, traced } = await startBoth();
const body = new URLSearchParams({
  grant_type: 'client_credentials',
  client_id: peers.demo.credentialsId!,
  client_secret: peers.demo.apiSecret!,
  scope: 'svc_admin_api',
}).toString();
const request = { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body };
const generator = loadGeneratorName();
await ensureLoadGenerator(generator);
/** One run against token `pid` (its CPU and its peers' counted): wrk by default, as the token bench runs it. */
const run = async (url: string, pid: number, duration = seconds): Promise<LoadResult> =>
  rate > 0
    ? {
        ...(await pacedLoad(new URL(url), [pid, peers.pid], {
          connections,
          seconds: duration,
          rate,
          requests: () => ({ body }),
        })),
        p99Ms: Number.NaN,
      }
    : generator === 'wrk'
      ? wrkLoad(url, [pid, peers.pid], { connections, seconds: duration, request })
      : load(url, [pid, peers.pid], { connections, seconds: duration, ...request });
const show = (name: string, r: LoadResult) =>
  console.log(
    `  ${name.padEnd(9)} ${r.rps.toFixed(0).padStart(6)} req/s  ${r.cpuUs.toFixed(1).padStart(6)} µs CPU/req (system ${r.systemUs.toFixed(1)})  p99 ${(Number.isNaN(r.p99Ms) ? '-' : String(r.p99Ms)).padStart(4)} ms  failed ${r.failed}`,
  );
const counts = async (): Promise<SinkCounts | undefined> => (sink ? sinkCounts(sink.url) : undefined);

console.log(
  `client_credentials untraced vs traced at ${ratio} (OTLP to ${sink ? 'the stand-in collector' : endpoint}): ${pairs} pairs${fresh ? ', each of two fresh processes' : ''}, ${rate > 0 ? `both held to ${rate} req/s (${connections} connections, ${seconds} s)` : describeLoad(generator, connections, seconds)}; load average ${loadAverage()}`,
);
const warmUp = async () => {
  await run(untraced.url, untraced.pid, 2);
  await run(traced.url, traced.pid, 2);
};
await warmUp();
const rps: number[] = [];
const cpu: number[] = [];
const spans: number[] = [];
let failed = 0;
for (let pair = 0; pair < pairs; pair++) {
  if (fresh && pair > 0) {
    await Promise.all([untraced.stop(), traced.stop()]);
    ({ untraced, traced } = await startBoth());
    await warmUp();
  }
  const order = pair % 2 === 0 ? ['untraced', 'traced'] : ['traced', 'untraced'];
  const got: Record<string, LoadResult> = {};
  for (const side of order) {
    const target = side === 'traced' ? traced : untraced;
    const before = side === 'traced' ? await counts() : undefined;
    got[side] = await run(target.url, target.pid);
    show(side, got[side]!);
    failed += got[side]!.failed;
    if (before) {
      await new Promise((r) => setTimeout(r, 1500)); // the exporter's last batch (1 s delay)
      const n = (await counts())!.spans - before.spans;
      spans.push(n / Math.max(1, got[side]!.total));
      console.log(
        `            spans exported ${n}: ${(n / Math.max(1, got[side]!.total)).toFixed(3)} per request`,
      );
    }
  }
  rps.push(got.traced!.rps / got.untraced!.rps);
  cpu.push(got.untraced!.cpuUs / got.traced!.cpuUs);
  console.log(`  pair ${pair + 1}: load average ${loadAverage()}`);
}
const list = (xs: number[]) => `[${xs.map((x) => x.toFixed(2)).join(', ')}]`;
/**
 * The second run of a pair has read slower than the first, by as much as tracing costs: a pair's ratio
 * carries the order it ran in. Pairs alternate the order, so each two consecutive pairs (untraced first, then
 * traced first) have it once each way: their geometric mean cancels it.
 */
const balanced = (xs: number[]) =>
  Array.from({ length: Math.floor(xs.length / 2) }, (_, i) => Math.sqrt(xs[2 * i]! * xs[2 * i + 1]!));
const byOrder = (xs: number[], first: 0 | 1) => xs.filter((_, i) => i % 2 === first);
console.log(
  `traced ÷ untraced req/s: median ${median(rps).toFixed(2)} ${list(rps)} ${rate > 0 ? '(both held to the rate)' : '(goal >= 0.9)'}`,
);
console.log(
  `  untraced first ${list(byOrder(rps, 0))}, traced first ${list(byOrder(rps, 1))}; order-balanced (two pairs each): median ${median(balanced(rps)).toFixed(2)} ${list(balanced(rps))}`,
);
console.log(
  `CPU per request, untraced ÷ traced: median ${median(cpu).toFixed(2)} ${list(cpu)}${rate > 0 ? ' (goal >= 0.9)' : ''}`,
);
console.log(`  order-balanced: median ${median(balanced(cpu)).toFixed(2)} ${list(balanced(cpu))}`);
if (spans.length) console.log(`spans exported per traced request: median ${median(spans).toFixed(3)}`);
if (sink) {
  const c = (await counts())!;
  console.log(`  by name: ${JSON.stringify(c.byName)}`);
}
console.log(
  `failed requests: ${failed}; load average now ${loadAverage()}; CPU of the sink ${sink ? `${(cpuOf([sink.pid]) / 1e6).toFixed(1)} s` : '-'}`,
);
await Promise.all([untraced.stop(), traced.stop(), peers.stop(), sink?.stop()]);
process.exit(0);
