// Over 300 lines on purpose: one benchmark (bare server, client_credentials on both stores, memory per token)
// whose phases share one process tree, one load generator and one report, read top to bottom in the
// interleaved rounds it prints.
/**
 * POST /token throughput, in one run on this machine:
 *   - authorization_code exchanges/s (codes pre-issued through Grants gRPC) ÷ the raw RSA-2048 crypto.sign
 *     rate of the same cores (one worker thread per core, each in a tight loop, summed);
 *   - client_credentials grants/s ÷ a bare node:http hello-world;
 *   - the same client_credentials load against oidc-provider (opaque tokens, client_secret_post, its
 *     in-memory adapter — token uses its in-memory KV likewise) side by side;
 *   - the token process's RSS under that load;
 *   - the same client_credentials load against token on the durable engine (a temp data dir, as the
 *     embedded default `npm start` keeps it: every token a committed row before it is answered) ÷ bare
 *     (issue 36: ≥ 0.3);
 *   - the same load against the embedded default itself (bench/embedded.server.ts: all six services in one
 *     process on the durable engine, as `npm start` runs them, its demo API credentials) ÷ bare (issue 42:
 *     ≥ 0.3; token standalone, in memory: ≥ 0.5);
 *
 *   - the same client_credentials load against a second token process that traces (OpenTelemetry at
 *     BENCH_TRACING_RATIO, 0.1, exporting over OTLP to bench/otlp-sink.ts, a stand-in collector in a process
 *     of its own) ÷ the untraced one (issue 40: ≥ 0.9), and the spans it exported per request;
 *
 *   - the embedded default's memory per issued token: RSS of a fresh token process before and after
 *     BENCH_MEMORY_SECONDS (20) of client_credentials load, per 100k tokens.
 *
 *   node --import tsx bench/token.bench.ts   (BENCH_SECONDS=6 BENCH_CONNECTIONS=50 BENCH_ROUNDS=3;
 *                                              SESAME_REDIS_URL adds token on real Redis to every round)
 *
 * Every server under test runs in its own child process (bench/token.server.ts): token as a pod runs it
 * (runStandalone), oidc-provider, the bare hello-world. What token needs runs in another child
 * (bench/token.peers.ts): the real jwks (Keys stream) and mgmt (Directory gRPC) services on in-memory
 * stores. The load generator is wrk (one thread, its C parser: bench/load-generator.ts says why; the
 * client_credentials POSTs through a Lua script) or autocannon's CLI with BENCH_LOADGEN=autocannon; the code
 * exchanges (a different code per request) always use bench/token.code-load.ts. The generator is a child too; everything shares this machine's cores, as the issue asks. Rounds
 * interleave the phases and the ratios are medians of per-round ratios. Besides req/s the bench prints
 * CPU per request of the serving processes (token's includes its peers), which other load on a shared
 * machine changes far less than throughput.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Worker } from 'node:worker_threads';
import { createClient } from '@sesame/platform';
import { grants } from '@sesame/proto';
import { describeLoad, ensureLoadGenerator, loadGeneratorName } from './load-generator';
import { sinkCounts } from './otlp-sink';
import { cpuOf, median, rssOf, wrkLoad } from './support';

const seconds = Number(process.env.BENCH_SECONDS ?? 6);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const cores = availableParallelism();
const generator = loadGeneratorName();
await ensureLoadGenerator(generator);
const autocannonBin = createRequire(import.meta.url).resolve('autocannon/autocannon.js');
const here = import.meta.dirname;
const OIDC_PROVIDER_CLIENT = { id: 'bench-credentials', secret: 'bench-api-secret-0123456789abcdef' };
const tracingRatio = process.env.BENCH_TRACING_RATIO ?? '0.1';

interface Result {
  rps: number;
  p99Ms: number;
  total: number;
  failed: number;
  /** CPU (user + system, all threads) of the serving processes per request, in microseconds. */
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
  redirectUri: string;
  credentialsId: string;
  apiSecret: string;
}

/** CPU time (µs) this process used so far, all its threads (the raw-sign workers). */
function ownCpu(): number {
  const own = process.cpuUsage();
  return own.user + own.system;
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

/**
 * Starts a long-running child that prints one JSON line when it serves. `BENCH_CPU_PROF=<dir>`: each child
 * writes a V8 CPU profile into `<dir>/<role>` when the bench ends it (bench/cpu-profile-top.ts reads it).
 */
async function serve<T>(
  script: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<T & { child: ChildProcess; pid: number }> {
  const profDir = process.env.BENCH_CPU_PROF;
  const role = `${args[0] ?? script}${env.OTEL_EXPORTER_OTLP_ENDPOINT ? '-traced' : ''}`;
  const prof = profDir ? ['--cpu-prof', `--cpu-prof-dir=${join(profDir, role)}`] : [];
  const child = spawn(process.execPath, [...prof, '--import', 'tsx', join(here, script), ...args], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
  });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`${script} ${args[0] ?? ''} exited with ${code}`)));
  });
  return { ...(JSON.parse(line) as T), child, pid: child.pid! };
}

const toResult = (r: Autocannon, cpuUs: number): Result => ({
  rps: r.requests.average,
  p99Ms: r.latency.p99,
  total: r.requests.total,
  failed: r.non2xx + r.errors + r.timeouts,
  cpuUs: cpuUs / Math.max(1, r.requests.total),
});

/**
 * The load generator (wrk by default, BENCH_LOADGEN=autocannon for autocannon's CLI) against one URL, a POST
 * form body when given; CPU counted for `pids`.
 */
async function load(url: string, pids: number[], body?: string, duration = seconds): Promise<Result> {
  if (generator === 'wrk') {
    const request = body
      ? { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body }
      : undefined;
    return wrkLoad(url, pids, { connections, seconds: duration, request });
  }
  const args = [autocannonBin, '-j', '-c', String(connections), '-d', String(duration)];
  if (body) args.push('-m', 'POST', '-H', 'content-type=application/x-www-form-urlencoded', '-b', body);
  const cpu = cpuOf(pids);
  const out = await runChild([...args, url]);
  return toResult(JSON.parse(out), cpuOf(pids) - cpu);
}

/**
 * RSA-2048 PKCS#1 v1.5 SHA-256 signatures per second: one worker thread per core, tight crypto.sign loops,
 * summed; and the CPU per signature (µs).
 */
async function rawSign(threads: number, ms: number): Promise<{ rate: number; cpuUs: number }> {
  const code = `
    const { generateKeyPairSync, sign } = require('node:crypto');
    const { parentPort, workerData } = require('node:worker_threads');
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const data = Buffer.alloc(700, 7); // about the size of a Sesame ID token's signing input
    parentPort.postMessage('ready');
    parentPort.once('message', () => {
      let n = 0; const start = performance.now();
      while (performance.now() - start < workerData) { sign('sha256', data, privateKey); n++; }
      parentPort.postMessage({ n, rate: n / ((performance.now() - start) / 1000) });
    });`;
  const workers = Array.from({ length: threads }, () => new Worker(code, { eval: true, workerData: ms }));
  await Promise.all(workers.map((w) => new Promise((resolve) => w.once('message', resolve))));
  const cpu = ownCpu();
  const results = await Promise.all(
    workers.map(
      (w) =>
        new Promise<{ n: number; rate: number }>((resolve, reject) => {
          w.once('message', resolve);
          w.once('error', reject);
          w.postMessage('go');
        }),
    ),
  );
  const cpuUs = ownCpu() - cpu;
  await Promise.all(workers.map((w) => w.terminate()));
  return {
    rate: results.reduce((a, r) => a + r.rate, 0),
    cpuUs: cpuUs / results.reduce((a, r) => a + r.n, 0),
  };
}

/** Issues `count` codes through Grants.IssueCode, 200 in flight. */
async function preIssueCodes(grpcAddr: string, demo: Demo, count: number): Promise<string[]> {
  const client = createClient(grants.GrantsServiceClient, grpcAddr, { deadlineMs: 30_000 });
  const now = Math.floor(Date.now() / 1000);
  const device = {
    deviceName: 'iPhone',
    osType: 'iOS',
    osVersion: '17',
    browserType: '',
    browserVersion: '',
  };
  const request: grants.IssueCodeRequest = {
    tenantId: demo.tenantId,
    appId: demo.appId,
    clientId: demo.clientId,
    redirectUri: demo.redirectUri,
    scope: 'openid email',
    codeChallenge: '',
    codeChallengeMethod: '',
    dpopJkt: '',
    flowId: 'bench',
    claims: {
      sub: '0e8f2c6a-51a3-4d8e-9b8e-6f0d7c2a9b11',
      authTime: now,
      nonce: 'bench-nonce',
      acr: ['ts.svc.iac.email'],
      amr: ['ts.svc.mfca'],
      svcInfo: { originatingDevice: device, authenticatingDevice: device, cappFirstLogin: now - 86_400 },
      email: 'person@example.com',
      emailVerified: true,
      emailUpdatedAt: now - 3600,
    },
  };
  const codes: string[] = [];
  const workers = Array.from({ length: 200 }, async () => {
    while (codes.length < count) codes.push((await client.issueCode(request)).code);
  });
  await Promise.all(workers);
  client.close();
  return codes;
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const show = (name: string, r: Result) =>
  console.log(
    `  ${name.padEnd(50)} ${r.rps.toFixed(0).padStart(6)} req/s  ${r.cpuUs.toFixed(0).padStart(4)} µs CPU/req  p99 ${String(r.p99Ms).padStart(4)} ms  failed ${r.failed}`,
  );
const formBody = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const ccBody = (id: string, secret: string) =>
  formBody({
    grant_type: 'client_credentials',
    client_id: id,
    client_secret: secret,
    scope: 'svc_admin_api',
  });

console.log(
  `token benchmark: ${cores} cores, ${describeLoad(generator, connections, seconds)}, ${rounds} rounds\n`,
);

const peers = await serve<{ keysAddr: string; directoryAddr: string; demo: Demo }>('token.peers.ts', []);
const token = await serve<{ url: string; grpcAddr: string }>('token.server.ts', [
  'token',
  peers.keysAddr,
  peers.directoryAddr,
]);
const durableDir = await mkdtemp(join(tmpdir(), 'sesame-token-durable-'));
const durable = await serve<{ url: string }>('token.server.ts', [
  'token-durable',
  peers.keysAddr,
  peers.directoryAddr,
  durableDir,
]);
// The embedded default as `npm start` runs it: all six services in one process on the durable engine in a
// temp data dir, its seeded demo API credentials.
const embeddedDir = await mkdtemp(join(tmpdir(), 'sesame-token-embedded-'));
const embedded = await serve<{ url: string; demo: { credentialsId: string; apiSecret: string } }>(
  'embedded.server.ts',
  ['{}', embeddedDir],
);
const embeddedUrl = new URL('/token', embedded.url).href;
// The same token service tracing at 10 %, exporting to a stand-in collector (its own process).
const sink = await serve<{ url: string }>('otlp-sink.ts', []);
const traced = await serve<{ url: string }>(
  'token.server.ts',
  ['token', peers.keysAddr, peers.directoryAddr],
  { OTEL_EXPORTER_OTLP_ENDPOINT: sink.url, OTEL_TRACES_SAMPLER_ARG: tracingRatio },
);
const oidc = await serve<{ url: string }>('token.server.ts', ['oidc-provider']);
const bare = await serve<{ url: string }>('token.server.ts', ['bare']);
// The same token service on real Redis (the multi-pod deployment), measured in the same rounds.
const onRedis = process.env.SESAME_REDIS_URL
  ? await serve<{ url: string }>('token.server.ts', [
      'token',
      peers.keysAddr,
      peers.directoryAddr,
      process.env.SESAME_REDIS_URL,
    ])
  : undefined;
const { demo } = peers;
const sesameCc = ccBody(demo.credentialsId, demo.apiSecret);
const oidcCc = ccBody(OIDC_PROVIDER_CLIENT.id, OIDC_PROVIDER_CLIENT.secret);
const embeddedCc = ccBody(embedded.demo.credentialsId, embedded.demo.apiSecret);
const tokenPids = [token.pid, peers.pid];
const rssIdle = rssOf(token.pid);
let rssMax = 0;
const rssTimer = setInterval(() => {
  rssMax = Math.max(rssMax, rssOf(token.pid));
}, 100);

const tmp = await mkdtemp(join(tmpdir(), 'sesame-token-bench-'));
async function codeLoad(count: number, duration: number): Promise<Result> {
  const file = join(tmp, 'codes.json');
  await writeFile(file, JSON.stringify(await preIssueCodes(token.grpcAddr, demo, count)));
  const args = [
    token.url,
    file,
    demo.clientId,
    demo.clientSecret,
    demo.redirectUri,
    String(connections),
    String(duration),
  ];
  const [tokenCpu, peersCpu] = [cpuOf([token.pid]), cpuOf([peers.pid])];
  const out = await runChild(['--import', 'tsx', join(here, 'token.code-load.ts'), ...args]);
  const result = toResult(JSON.parse(out), cpuOf(tokenPids) - tokenCpu - peersCpu);
  const perReq = (us: number) => (us / Math.max(1, result.total)).toFixed(0);
  console.log(
    `    (CPU per exchange: token ${perReq(cpuOf([token.pid]) - tokenCpu)} µs, peers ${perReq(cpuOf([peers.pid]) - peersCpu)} µs)`,
  );
  return result;
}

// Warm-up: JIT, connection pools, the Directory cache.
await load(bare.url, [bare.pid], undefined, 2);
await load(token.url, tokenPids, sesameCc, 2);
await load(traced.url, [traced.pid, peers.pid], sesameCc, 2);
await load(oidc.url, [oidc.pid], oidcCc, 2);
await load(durable.url, [durable.pid, peers.pid], sesameCc, 2);
await load(embeddedUrl, [embedded.pid], embeddedCc, 2);
if (onRedis) await load(onRedis.url, [onRedis.pid, peers.pid], sesameCc, 2);
await codeLoad(3000, 1);

const series = {
  code: [] as number[],
  codeCpu: [] as number[],
  cc: [] as number[],
  ccCpu: [] as number[],
  ccRedis: [] as number[],
  ccRedisCpu: [] as number[],
  ccDurable: [] as number[],
  ccDurableCpu: [] as number[],
  ccEmbedded: [] as number[],
  ccEmbeddedCpu: [] as number[],
  ccTraced: [] as number[],
  ccTracedCpu: [] as number[],
  spansPerRequest: [] as number[],
};
const vsOidc = { rps: [] as number[], cpu: [] as number[] };
let failed = 0;
for (let round = 1; round <= rounds; round++) {
  console.log(`round ${round}`);
  const bareRun = await load(bare.url, [bare.pid]);
  show('bare node:http hello-world', bareRun);
  // Untraced and traced back to back, in alternating order from round to round.
  const tracedRun = async () => {
    const before = (await sinkCounts(sink.url)).spans;
    const run = await load(traced.url, [traced.pid, peers.pid], sesameCc);
    show(`Sesame client_credentials, traced at ${tracingRatio}`, run);
    await new Promise((r) => setTimeout(r, 1500)); // the exporter's last batch (1 s delay)
    const spans = (await sinkCounts(sink.url)).spans - before;
    series.spansPerRequest.push(spans / Math.max(1, run.total));
    console.log(`    (spans exported: ${spans}, ${(spans / Math.max(1, run.total)).toFixed(3)} per request)`);
    return run;
  };
  const tracedFirst = round % 2 === 0 ? await tracedRun() : undefined;
  const ccRun = await load(token.url, tokenPids, sesameCc);
  show('Sesame client_credentials', ccRun);
  const tracedCc = tracedFirst ?? (await tracedRun());
  failed += tracedCc.failed;
  series.ccTraced.push(tracedCc.rps / ccRun.rps);
  series.ccTracedCpu.push(ccRun.cpuUs / tracedCc.cpuUs);
  const durableRun = await load(durable.url, [durable.pid, peers.pid], sesameCc);
  show('Sesame client_credentials, durable embedded store', durableRun);
  failed += durableRun.failed;
  series.ccDurable.push(durableRun.rps / bareRun.rps);
  series.ccDurableCpu.push(bareRun.cpuUs / durableRun.cpuUs);
  const embeddedRun = await load(embeddedUrl, [embedded.pid], embeddedCc);
  show('Sesame client_credentials, embedded default', embeddedRun);
  failed += embeddedRun.failed;
  series.ccEmbedded.push(embeddedRun.rps / bareRun.rps);
  series.ccEmbeddedCpu.push(bareRun.cpuUs / embeddedRun.cpuUs);
  const oidcRun = await load(oidc.url, [oidc.pid], oidcCc);
  show('oidc-provider 9 client_credentials', oidcRun);
  const sign = await rawSign(cores, 3000);
  console.log(
    `  ${`raw RSA-2048 crypto.sign, ${cores} worker threads`.padEnd(50)} ${sign.rate.toFixed(0).padStart(6)} sig/s  ${sign.cpuUs.toFixed(0).padStart(4)} µs CPU/sig`,
  );
  const codeRun = await codeLoad(Math.ceil(sign.rate * 1.5 * seconds) + 2000, seconds);
  show('Sesame authorization_code exchanges (RS256)', codeRun);
  failed += bareRun.failed + ccRun.failed + oidcRun.failed + codeRun.failed;
  series.code.push(codeRun.rps / sign.rate);
  series.codeCpu.push(sign.cpuUs / codeRun.cpuUs);
  series.cc.push(ccRun.rps / bareRun.rps);
  if (onRedis) {
    const redisRun = await load(onRedis.url, [onRedis.pid, peers.pid], sesameCc);
    show('Sesame client_credentials, token on real Redis', redisRun);
    failed += redisRun.failed;
    series.ccRedis.push(redisRun.rps / bareRun.rps);
    series.ccRedisCpu.push(bareRun.cpuUs / redisRun.cpuUs);
  }
  series.ccCpu.push(bareRun.cpuUs / ccRun.cpuUs);
  vsOidc.rps.push(ccRun.rps / oidcRun.rps);
  vsOidc.cpu.push(oidcRun.cpuUs / ccRun.cpuUs);
}
clearInterval(rssTimer);

// Memory of the embedded default: a fresh token process, warmed up, then RSS before and after issuing many
// client_credentials tokens (each kept in the in-memory KV until it expires).
const memorySeconds = Number(process.env.BENCH_MEMORY_SECONDS ?? 20);
const fresh = await serve<{ url: string }>('token.server.ts', ['token', peers.keysAddr, peers.directoryAddr]);
await load(fresh.url, [fresh.pid, peers.pid], sesameCc, 2);
const rssBefore = rssOf(fresh.pid);
const memoryRun = await load(fresh.url, [fresh.pid, peers.pid], sesameCc, memorySeconds);
const rssAfter = rssOf(fresh.pid);
fresh.child.stdin?.end();
const perToken = (rssAfter - rssBefore) / Math.max(1, memoryRun.total);

// No goal: the figure is printed beside the others without a verdict. BENCH_ROUNDS=0 prints memory only.
const line = (name: string, xs: number[], goal?: number) => {
  if (!xs.length) return;
  const m = median(xs);
  const [min, max] = [Math.min(...xs), Math.max(...xs)];
  const verdict = goal === undefined ? '      ' : m >= goal ? 'met   ' : 'MISSED';
  console.log(
    `  ${name.padEnd(60)} ${m.toFixed(2)} ${verdict} min/median/max ${min.toFixed(2)}/${m.toFixed(2)}/${max.toFixed(2)} [${xs.map((x) => x.toFixed(2)).join(', ')}]`,
  );
};
console.log(
  '\nratios: median of rounds [per round]; "CPU" = inverse ratio of CPU per request, robust to other load',
);
line('authorization_code/s ÷ raw RSA sign/s (goal >= 0.8)', series.code, 0.8);
line('  CPU: µs per signature ÷ µs per exchange (token + peers)', series.codeCpu);
line('client_credentials/s, embedded default ÷ bare node:http/s (goal >= 0.3)', series.ccEmbedded, 0.3);
line('  CPU: bare µs/req ÷ embedded default µs/req', series.ccEmbeddedCpu);
line('client_credentials/s, token standalone ÷ bare node:http/s (goal >= 0.5)', series.cc, 0.5);
line('  CPU: bare µs/req ÷ Sesame µs/req (token + peers)', series.ccCpu);
line('client_credentials/s, durable store ÷ bare node:http/s (goal >= 0.3)', series.ccDurable, 0.3);
line('  CPU: bare µs/req ÷ Sesame durable µs/req (token + peers)', series.ccDurableCpu);
if (onRedis) {
  line('client_credentials/s on real Redis ÷ bare node:http/s', series.ccRedis);
  line('  CPU: bare µs/req ÷ Sesame on Redis µs/req (token + peers)', series.ccRedisCpu);
}
line(`client_credentials/s traced at ${tracingRatio} ÷ untraced (goal >= 0.9)`, series.ccTraced, 0.9);
line('  CPU: untraced µs/req ÷ traced µs/req (token + peers)', series.ccTracedCpu);
line('  spans exported per traced request', series.spansPerRequest);
line('Sesame ÷ oidc-provider client_credentials/s (goal > 1)', vsOidc.rps, 1.0001);
line('  CPU: oidc-provider µs/req ÷ Sesame µs/req', vsOidc.cpu);
console.log(
  `  token process RSS: ${mb(rssIdle)} idle, max ${mb(rssMax)} under load (the in-memory KV holds every token and code issued)`,
);
console.log(
  `  embedded default memory: RSS ${mb(rssBefore)} -> ${mb(rssAfter)} over ${memoryRun.total} client_credentials tokens = ${((perToken * 100_000) / 1024 / 1024).toFixed(1)} MiB per 100k tokens (${(perToken / 1024).toFixed(2)} KiB per token)`,
);
console.log(`  failed requests in measured phases: ${failed}`);

for (const p of [token, traced, sink, oidc, bare, peers, ...(onRedis ? [onRedis] : [])]) p.child.stdin?.end();
durable.child.stdin?.end();
embedded.child.stdin?.end();
await new Promise((resolve) => embedded.child.once('exit', resolve));
await rm(embeddedDir, { recursive: true, force: true });
await rm(tmp, { recursive: true, force: true });
await rm(durableDir, { recursive: true, force: true });
process.exit(0);
