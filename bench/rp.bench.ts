/**
 * The RP endpoints of token (issue 27), in one run on this machine, each ÷ a bare node:http hello-world
 * measured in the same round, next to client_credentials:
 *   - refresh_token grants/s (rotation on every use, a new access token and RS256 ID token each);
 *   - GET /userinfo requests/s with a Bearer access token;
 *   - client_credentials grants/s.
 *
 *   npm run bench -- rp      (BENCH_SECONDS=6 BENCH_CONNECTIONS=50 BENCH_ROUNDS=3)
 *
 * token runs as a pod runs it (bench/token.server.ts) on its in-memory KV, its peers (jwks, mgmt with the
 * demo app, which allows refresh tokens) in another child (bench/token.peers.ts), the load generator in a
 * third; all share this machine's cores. CPU per request (token + peers) is printed beside req/s.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@sesame/platform';
import { grants } from '@sesame/proto';
import { type LoadResult, cpuPerRequest, cpuSplitOf, load, median, serve } from './support';

const seconds = Number(process.env.BENCH_SECONDS ?? 6);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const here = import.meta.dirname;

interface Demo {
  tenantId: string;
  appId: string;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  credentialsId: string;
  apiSecret: string;
}

/** Signs in `count` times (codes issued over gRPC, redeemed at /token): their refresh and access tokens. */
async function signIns(tokenUrl: string, grpcAddr: string, demo: Demo, count: number) {
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
    scope: 'openid email offline_access',
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
      svcInfo: { originatingDevice: device, authenticatingDevice: device },
      email: 'person@example.com',
      emailVerified: true,
    },
  };
  const out: Array<{ refresh: string; access: string }> = [];
  const workers = Array.from({ length: 20 }, async () => {
    while (out.length < count) {
      const { code } = await client.issueCode(request);
      const res = await fetch(tokenUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code,
          redirect_uri: demo.redirectUri,
          client_id: demo.clientId,
          client_secret: demo.clientSecret,
        }),
      });
      const body = (await res.json()) as { refresh_token?: string; access_token: string };
      if (!body.refresh_token) throw new Error(`no refresh token: ${JSON.stringify(body)}`);
      out.push({ refresh: body.refresh_token, access: body.access_token });
    }
  });
  await Promise.all(workers);
  client.close();
  return out;
}

/** A bench/rp.load.ts child; CPU counted for `pids`. */
async function formLoad(args: string[], pids: number[]): Promise<LoadResult> {
  const cpu = cpuSplitOf(pids);
  const out = await new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(here, 'rp.load.ts'), ...args], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let text = '';
    child.stdout.on('data', (chunk) => {
      text += chunk;
    });
    child.on('exit', (code) => (code === 0 ? resolve(text) : reject(new Error(`rp.load exited ${code}`))));
  });
  const r = JSON.parse(out) as {
    requests: { average: number; total: number };
    latency: { p99: number };
    non2xx: number;
    errors: number;
    timeouts: number;
  };
  return {
    rps: r.requests.average,
    total: r.requests.total,
    p99Ms: r.latency.p99,
    failed: r.non2xx + r.errors + r.timeouts,
    ...cpuPerRequest(cpu, cpuSplitOf(pids), r.requests.total),
  };
}

const show = (name: string, r: LoadResult) =>
  console.log(
    `  ${name.padEnd(40)} ${r.rps.toFixed(0).padStart(6)} req/s  ${r.cpuUs.toFixed(0).padStart(5)} µs CPU/req  p99 ${String(r.p99Ms).padStart(4)} ms  failed ${r.failed}`,
  );

console.log(
  `RP endpoints benchmark: ${availableParallelism()} cores, ${connections} connections, ${seconds} s per phase, ${rounds} rounds\n`,
);
const peers = await serve<{ keysAddr: string; directoryAddr: string; demo: Demo }>('token.peers.ts', []);
const token = await serve<{ url: string; grpcAddr: string }>('token.server.ts', [
  'token',
  peers.keysAddr,
  peers.directoryAddr,
]);
const bare = await serve<{ url: string }>('token.server.ts', ['bare']);
const { demo } = peers;
const pids = [token.pid, peers.pid];
const base = token.url.replace(/\/token$/, '');
const tmp = await mkdtemp(join(tmpdir(), 'sesame-rp-bench-'));

// Twice the connections: every request in flight holds one, and a failed answer loses its token.
const signedIn = await signIns(token.url, token.grpcAddr, demo, connections * 2);
const tokensFile = join(tmp, 'refresh-tokens.json');
await writeFile(tokensFile, JSON.stringify(signedIn.map((s) => s.refresh)));
const bearer = { authorization: `Bearer ${signedIn[0]!.access}` };
const cc = new URLSearchParams({
  grant_type: 'client_credentials',
  client_id: demo.credentialsId,
  client_secret: demo.apiSecret,
  scope: 'svc_admin_api',
}).toString();
const refreshArgs = (s: number) => [
  'refresh',
  token.url,
  tokensFile,
  demo.clientId,
  demo.clientSecret,
  String(connections),
  String(s),
];

// Warm-up: JIT, connection pools, the Directory cache. The refresh pool is written again after each use.
await load(bare.url, [bare.pid], { connections, seconds: 1 });
await formLoad(['form', token.url, cc, String(connections), '1'], pids);
await load(`${base}/userinfo`, pids, { connections, seconds: 1, headers: bearer });

const ratio = { refresh: [] as number[], userinfo: [] as number[], cc: [] as number[] };
let failed = 0;
for (let round = 1; round <= rounds; round++) {
  console.log(`round ${round}`);
  const bareRun = await load(bare.url, [bare.pid], { connections, seconds });
  show('bare node:http hello-world', bareRun);
  const ccRun = await formLoad(['form', token.url, cc, String(connections), String(seconds)], pids);
  show('client_credentials grants', ccRun);
  const fresh = await signIns(token.url, token.grpcAddr, demo, connections * 2);
  await writeFile(tokensFile, JSON.stringify(fresh.map((s) => s.refresh)));
  const refreshRun = await formLoad(refreshArgs(seconds), pids);
  show('refresh_token grants (rotating)', refreshRun);
  const userinfoRun = await load(`${base}/userinfo`, pids, { connections, seconds, headers: bearer });
  show('GET /userinfo (Bearer)', userinfoRun);
  failed += ccRun.failed + refreshRun.failed + userinfoRun.failed;
  ratio.cc.push(ccRun.rps / bareRun.rps);
  ratio.refresh.push(refreshRun.rps / bareRun.rps);
  ratio.userinfo.push(userinfoRun.rps / bareRun.rps);
}

const line = (name: string, xs: number[]) =>
  console.log(`  ${name.padEnd(44)} ${median(xs).toFixed(2)} [${xs.map((x) => x.toFixed(2)).join(', ')}]`);
console.log('\nratios to bare node:http in the same round: median [per round]');
line('client_credentials/s ÷ bare/s', ratio.cc);
line('refresh_token grants/s ÷ bare/s', ratio.refresh);
line('userinfo/s ÷ bare/s', ratio.userinfo);
console.log(`  failed requests in measured phases: ${failed}`);

await Promise.all([token.stop(), bare.stop(), peers.stop()]);
await rm(tmp, { recursive: true, force: true });
process.exit(0);
