/**
 * GET /jwks and GET /.well-known/openid-configuration, served as the services serve them (runStandalone:
 * fast routes ahead of express), against bare node:http in the same run. The servers run in this process;
 * the load generator runs as a child process, over loopback: wrk with one thread (bench/load-generator.ts says
 * why), or autocannon (bench/jwks-load.ts) with BENCH_LOADGEN=autocannon.
 *
 *   node --import tsx bench/jwks.bench.ts      (BENCH_SECONDS=5 BENCH_CONNECTIONS=32 BENCH_ROUNDS=3)
 *
 * Two bare node:http servers stand beside Sesame in every round:
 * - the hello-world of issue 29 (11 bytes of body, one header);
 * - the same answer: a bare node:http handler that writes, with writeHead(200, list) and end(body), the very
 *   status, headers and body Sesame sends for that document (jwks-same-answer.ts: captured from Sesame once at
 *   start; only Date differs, as node sets it). The same bytes on the wire, so the difference is Sesame's own per-request
 *   work, not the size of the document: a /jwks answer is about 4 KB, the hello-world about 130 bytes, and
 *   both the kernel's loopback send and the load generator's parsing grow with the size.
 * Rounds interleave the bare and served runs (the order rotating each round) and the ratios are per round,
 * so drift in the machine's load hits both sides; min/median/max of the rounds are printed. Besides req/s
 * it prints the server's CPU time per request (this process's CPU over the run / requests), which is far
 * less sensitive to other load, and the load generator's own CPU (its share of one core: near 100% means
 * the load generator, not the server, set the req/s), and the load average at each round.
 */
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createAuthService, loadAuthConfig } from '@sesame/auth-service';
import { createJwksService, loadJwksConfig } from '@sesame/jwks-service';
import { type ServiceModule, buildHttpApp, listen, runStandalone } from '@sesame/platform';
import { type BareServer, bareHelloWorld, bareSameAnswer } from './jwks-same-answer';
import { describeLoad, ensureLoadGenerator, loadGeneratorName, runLoad } from './load-generator';
import { median } from './support';

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const autocannonScript = join(dirname(fileURLToPath(import.meta.url)), 'jwks-load.ts');
const generator = loadGeneratorName();
await ensureLoadGenerator(generator);

interface Result {
  rps: number;
  /** Server CPU per request in microseconds (the servers are this process; autocannon is a child). */
  cpuUs: number;
  /** The load generator's CPU over the run, as a share of one core. */
  loadShare: number;
  p99Ms: number;
  failed: number;
}

async function load(url: string): Promise<Result> {
  const cpu = process.cpuUsage();
  const r = await runLoad(generator, url, connections, seconds, autocannonScript);
  const used = process.cpuUsage(cpu);
  return {
    rps: r.rps,
    cpuUs: (used.user + used.system) / Math.max(1, r.total),
    loadShare: r.loadCpuUs / (seconds * 1e6),
    p99Ms: r.p99Ms,
    failed: r.failed,
  };
}

const env = { SESAME_ENV: 'test', LOG_LEVEL: 'silent', HTTP_PORT: '0', GRPC_PORT: '0' };
const standalone = (mod: ServiceModule) =>
  runStandalone(mod, { httpPort: 0, grpcPort: 0, host: '127.0.0.1', shutdownTimeoutMs: 1000 });

const jwksMod = await createJwksService(loadJwksConfig(env));
const authMod = await createAuthService(
  loadAuthConfig({ ...env, SESAME_AUTH_URL: 'https://auth.example.test' }),
);
const jwks = await standalone(jwksMod);
const auth = await standalone(authMod);
// The same modules behind express only (no fast path), to show what the fast path buys.
const jwksExpress = await listen(
  buildHttpApp(jwksMod, () => false),
  0,
  '127.0.0.1',
);
const authExpress = await listen(
  buildHttpApp(authMod, () => false),
  0,
  '127.0.0.1',
);
const bare = await bareHelloWorld();

const discovery = '/.well-known/openid-configuration';
interface Document {
  name: string;
  url: string;
  /** Bare node:http writing the same answer. */
  same: BareServer;
}
const documents: Document[] = [];
for (const [name, url] of [
  ['GET /jwks', `http://127.0.0.1:${jwks.httpPort}/jwks`],
  [`GET ${discovery}`, `http://127.0.0.1:${auth.httpPort}${discovery}`],
] as const)
  documents.push({ name, url, same: await bareSameAnswer(url) });
const expressOnly: Array<[string, string]> = [
  ['GET /jwks, express only (no fast path)', `http://127.0.0.1:${jwksExpress.port}/jwks`],
  ['GET discovery, express only (no fast path)', `http://127.0.0.1:${authExpress.port}${discovery}`],
];
const ratio = (r: Result, base: Result) =>
  `${(r.rps / base.rps).toFixed(2)} (CPU ${(base.cpuUs / r.cpuUs).toFixed(2)})`;
const show = (name: string, r: Result, ...against: Array<[string, Result]>) =>
  console.log(
    `  ${name.padEnd(46)} ${r.rps.toFixed(0).padStart(6)} req/s  ${r.cpuUs.toFixed(1).padStart(5)} µs CPU/req  p99 ${String(r.p99Ms).padStart(3)} ms  load gen ${(r.loadShare * 100).toFixed(0).padStart(3)}% CPU  failed ${r.failed}` +
      against.map(([what, base]) => `  ÷ ${what} ${ratio(r, base)}`).join(''),
  );
const spread = (xs: number[]) =>
  [Math.min(...xs), median(xs), Math.max(...xs)].map((x) => x.toFixed(2)).join('/');
const loads = () =>
  loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');

console.log(`${describeLoad(generator, connections, seconds)}; ${rounds} interleaved rounds`);
for (const url of [
  bare.url,
  ...documents.flatMap((d) => [d.same.url, d.url]),
  ...expressOnly.map(([, u]) => u),
])
  await load(url); // warm-up
interface Ratios {
  rps: number[];
  cpu: number[];
}
const none = (): Ratios => ({ rps: [], cpu: [] });
const ratios = new Map(documents.map((d) => [d.name, { hello: none(), same: none() }]));
const add = (to: Ratios, r: Result, base: Result) => {
  to.rps.push(r.rps / base.rps);
  to.cpu.push(base.cpuUs / r.cpuUs);
};
const loadAverages: string[] = [];
let failed = 0;
for (let round = 1; round <= rounds; round++) {
  loadAverages.push(loads());
  console.log(`round ${round} (load average ${loads()})`);
  const hello = await load(bare.url);
  show('bare node:http hello-world', hello);
  // Rotate the order each round so neither document always runs right after the hello-world, and the bare
  // same answer runs before its document in odd rounds and after it in even ones.
  for (const doc of [...documents.slice(round % 2), ...documents.slice(0, round % 2)]) {
    const pair = round % 2 ? ([doc.same.url, doc.url] as const) : ([doc.url, doc.same.url] as const);
    const first = await load(pair[0]);
    const second = await load(pair[1]);
    const [same, served] = round % 2 ? [first, second] : [second, first];
    show(`bare node:http, the same answer as ${doc.name.slice(4)}`, same, ['hello', hello]);
    show(doc.name, served, ['hello', hello], ['same answer', same]);
    failed += served.failed;
    add(ratios.get(doc.name)!.hello, served, hello);
    add(ratios.get(doc.name)!.same, served, same);
  }
}
loadAverages.push(loads());
console.log('express only, for comparison (one run each)');
const bareAgain = await load(bare.url);
show('bare node:http hello-world', bareAgain);
for (const [name, url] of expressOnly) show(name, await load(url), ['hello', bareAgain]);

console.log(
  '\nratio to bare node:http in the same rounds (goal: median >= 0.8), min/median/max: req/s ratio | CPU-per-request ratio',
);
for (const [name, { hello, same }] of ratios) {
  for (const [base, r] of [
    ['÷ hello-world', hello],
    ['÷ bare, same answer', same],
  ] as const) {
    const m = median(r.rps);
    console.log(
      `  ${`${name} ${base}`.padEnd(62)} ${m.toFixed(2)} ${m >= 0.8 ? 'met   ' : 'MISSED'} ${spread(r.rps)} | ${spread(r.cpu)}`,
    );
  }
}
console.log(`load average (1/5/15 min) at each round's start and at the end: ${loadAverages.join(', ')}`);
console.log(`failed requests in the measured rounds: ${failed}`);

bare.close();
for (const doc of documents) doc.same.close();
await Promise.all([jwksExpress.close(1000), authExpress.close(1000)]);
await Promise.all([jwks.stop(), auth.stop()]);
process.exit(0);
