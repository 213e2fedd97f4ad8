/**
 * GET /jwks and GET /.well-known/openid-configuration, served as the services serve them (runStandalone:
 * fast routes ahead of express), against a bare node:http hello-world, in one run. The servers run in this
 * process (one core); autocannon runs as a child process (the other core), over loopback.
 *
 *   node --import tsx bench/jwks.bench.ts      (BENCH_SECONDS=5 BENCH_CONNECTIONS=50 BENCH_ROUNDS=3)
 *
 * Rounds interleave bare and served runs and the ratio is the median of per-round ratios, so drift in the
 * machine's load hits both sides. Besides req/s it prints the server's CPU time per request (this
 * process's CPU over the run / requests), which is far less sensitive to other load on the machine.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { createAuthService, loadAuthConfig } from '@sesame/auth-service';
import { createJwksService, loadJwksConfig } from '@sesame/jwks-service';
import { type ServiceModule, buildHttpApp, listen, runStandalone } from '@sesame/platform';

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const autocannonBin = createRequire(import.meta.url).resolve('autocannon/autocannon.js');

interface Result {
  rps: number;
  /** Server CPU per request in microseconds (the servers are this process; autocannon is a child). */
  cpuUs: number;
  p99Ms: number;
  failed: number;
}

function load(url: string): Promise<Result> {
  const cpu = process.cpuUsage();
  return new Promise((resolve, reject) => {
    const args = [autocannonBin, '-j', '-c', String(connections), '-d', String(seconds), url];
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`autocannon exited with ${code}`));
      const r = JSON.parse(out);
      const used = process.cpuUsage(cpu);
      resolve({
        rps: r.requests.average,
        cpuUs: (used.user + used.system) / Math.max(1, r.requests.total),
        p99Ms: r.latency.p99,
        failed: r.non2xx + r.errors + r.timeouts,
      });
    });
  });
}

async function bareHelloWorld(): Promise<{ url: string; close: () => void }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/plain' });
    res.end('hello world');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, close: () => server.close() };
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
const served: Array<[string, string]> = [
  ['GET /jwks', `http://127.0.0.1:${jwks.httpPort}/jwks`],
  [`GET ${discovery}`, `http://127.0.0.1:${auth.httpPort}${discovery}`],
];
const expressOnly: Array<[string, string]> = [
  ['GET /jwks, express only (no fast path)', `http://127.0.0.1:${jwksExpress.port}/jwks`],
  ['GET discovery, express only (no fast path)', `http://127.0.0.1:${authExpress.port}${discovery}`],
];
const show = (name: string, r: Result, bareRun?: Result) =>
  console.log(
    `  ${name.padEnd(46)} ${r.rps.toFixed(0).padStart(6)} req/s  ${r.cpuUs.toFixed(1).padStart(5)} µs CPU/req  p99 ${String(r.p99Ms).padStart(3)} ms  failed ${r.failed}` +
      (bareRun
        ? `  ratio ${(r.rps / bareRun.rps).toFixed(2)} (CPU ${(bareRun.cpuUs / r.cpuUs).toFixed(2)})`
        : ''),
  );
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const spread = (xs: number[]) =>
  [Math.min(...xs), median(xs), Math.max(...xs)].map((x) => x.toFixed(2)).join('/');

console.log(`autocannon -c ${connections} -d ${seconds} over loopback; ${rounds} interleaved rounds`);
for (const url of [bare.url, ...served.map(([, u]) => u), ...expressOnly.map(([, u]) => u)]) await load(url); // warm-up
const ratios = new Map(served.map(([name]) => [name, { rps: [] as number[], cpu: [] as number[] }]));
let failed = 0;
for (let round = 1; round <= rounds; round++) {
  console.log(`round ${round}`);
  const baseline = await load(bare.url);
  show('bare node:http hello-world', baseline);
  // Rotate the order each round so neither route always runs right after the baseline.
  for (const [name, url] of [
    ...served.slice(round % served.length),
    ...served.slice(0, round % served.length),
  ]) {
    const r = await load(url);
    show(name, r, baseline);
    failed += r.failed;
    ratios.get(name)!.rps.push(r.rps / baseline.rps);
    ratios.get(name)!.cpu.push(baseline.cpuUs / r.cpuUs);
  }
}
console.log('express only, for comparison (one run each)');
const bareAgain = await load(bare.url);
show('bare node:http hello-world', bareAgain);
for (const [name, url] of expressOnly) show(name, await load(url), bareAgain);

console.log(
  '\nratio to bare node:http in the same rounds (goal: median >= 0.8): req/s ratio | CPU-per-request ratio',
);
for (const [name, { rps, cpu }] of ratios) {
  const m = median(rps);
  console.log(
    `  ${name.padEnd(46)} ${m.toFixed(2)} ${m >= 0.8 ? 'met   ' : 'MISSED'} min/median/max ${spread(rps)} | ${spread(cpu)}`,
  );
}
console.log(`failed requests in the measured rounds: ${failed}`);

bare.close();
await Promise.all([jwksExpress.close(1000), authExpress.close(1000)]);
await Promise.all([jwks.stop(), auth.stop()]);
process.exit(0);
