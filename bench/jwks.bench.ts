/**
 * GET /jwks and GET /.well-known/openid-configuration, served as the services serve them (runStandalone:
 * fast routes ahead of express), against a bare node:http hello-world, in one run. The servers run in this
 * process (one core); autocannon runs as a child process (the other core), over loopback.
 *
 *   node --import tsx bench/jwks.bench.ts            (BENCH_SECONDS=5 BENCH_CONNECTIONS=50 by default)
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
const autocannonBin = createRequire(import.meta.url).resolve('autocannon/autocannon.js');

interface Result {
  rps: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
}

function load(url: string): Promise<Result> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [autocannonBin, '-j', '-c', String(connections), '-d', String(seconds), url],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`autocannon exited with ${code}`));
      const r = JSON.parse(out);
      resolve({
        rps: r.requests.average,
        p99Ms: r.latency.p99,
        non2xx: r.non2xx,
        errors: r.errors + r.timeouts,
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

const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const bareName = 'bare node:http hello-world';
const served: Array<[string, string]> = [
  ['GET /jwks', `http://127.0.0.1:${jwks.httpPort}/jwks`],
  [
    'GET /.well-known/openid-configuration',
    `http://127.0.0.1:${auth.httpPort}/.well-known/openid-configuration`,
  ],
];
const expressOnly: Array<[string, string]> = [
  ['GET /jwks, express only (no fast path)', `http://127.0.0.1:${jwksExpress.port}/jwks`],
  [
    'GET discovery, express only (no fast path)',
    `http://127.0.0.1:${authExpress.port}/.well-known/openid-configuration`,
  ],
];
const line = (name: string, r: Result) =>
  console.log(
    `  ${name.padEnd(46)} ${r.rps.toFixed(0).padStart(7)} req/s  p99 ${String(r.p99Ms).padStart(3)} ms  non-2xx ${r.non2xx}  errors ${r.errors}`,
  );
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

console.log(
  `autocannon -c ${connections} -d ${seconds}, loopback; ${rounds} interleaved rounds (bare, then each route)`,
);
for (const url of [bare.url, ...served.map(([, u]) => u), ...expressOnly.map(([, u]) => u)]) await load(url); // warm-up
const ratios = new Map<string, number[]>(served.map(([name]) => [name, []]));
const failures: string[] = [];
for (let round = 1; round <= rounds; round++) {
  console.log(`round ${round}`);
  const baseline = await load(bare.url);
  line(bareName, baseline);
  for (const [name, url] of served) {
    const r = await load(url);
    line(name, r);
    if (r.non2xx || r.errors) failures.push(`${name}: ${r.non2xx} non-2xx, ${r.errors} errors`);
    ratios.get(name)!.push(r.rps / baseline.rps);
  }
}
console.log('express only, for comparison (one run each)');
const bareAgain = await load(bare.url);
line(bareName, bareAgain);
for (const [name, url] of expressOnly) {
  const r = await load(url);
  line(name, r);
  console.log(`    ratio to bare ${(r.rps / bareAgain.rps).toFixed(2)}`);
}
console.log('\nratio to bare node:http (median of rounds; goal >= 0.8)');
for (const [name, xs] of ratios) {
  const m = median(xs);
  console.log(
    `  ${name.padEnd(46)} ${m.toFixed(2)}  [${xs.map((x) => x.toFixed(2)).join(', ')}]  ${m >= 0.8 ? 'met' : 'MISSED'}`,
  );
}
if (failures.length) console.log(`failed requests: ${failures.join('; ')}`);

bare.close();
await Promise.all([jwksExpress.close(1000), authExpress.close(1000)]);
await Promise.all([jwks.stop(), auth.stop()]);
process.exit(0);
