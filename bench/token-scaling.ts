/**
 * The token service scaled on its own (issue 40): 1, 2 and 4 token replicas behind HAProxy (bench/cluster, one
 * replica of every other service) on the infra's servers, client_credentials at /token through the balancer
 * from BENCH_CONNECTIONS (16) concurrent clients for BENCH_SECONDS (10) per size after a warm-up. Prints, per
 * size, the throughput, failures, and CPU per request of the token replicas and of the balancer (utime +
 * stime from /proc). On a machine with two cores throughput cannot grow with replicas; what must hold is that
 * CPU per token stays flat (no per-replica overhead) and nothing fails.
 *
 *   node --import tsx bench/token-scaling.ts     (eval "$(npm run -s infra -- env)" first, or the defaults)
 */
import { sleep } from '@sesame/testing';
import { startCluster } from './cluster/cluster';
import { clusterStores } from './cluster/stores';
import { cpuOf } from './support';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 16);
const sizes = (process.env.BENCH_TOKEN_REPLICAS ?? '1,2,4').split(',').map(Number);
const most = Math.max(...sizes);
const log = (msg: string) => console.error(`[token-scaling] ${msg}`);

const stores = await clusterStores(`bench-token-scaling-${process.pid}`, { fresh: true });
const cluster = await startCluster({
  replicas: { auth: 1, token: most, jwks: 1, mgmt: 1, 'activity-log': 1, 'ciba-notifier': 1 },
  env: stores.env,
  log,
});
const rows: Array<Record<string, number>> = [];
try {
  const admin = async (path: string, body: unknown) => {
    const res = await fetch(`${cluster.urls.admin}/api/v1/admin${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${cluster.adminKey}` },
      body: JSON.stringify(body),
    });
    return (await res.json()) as Record<string, string>;
  };
  const { tenantId } = await admin('/tenants', { name: 'token scaling' });
  const { credentialsId, apiSecret } = await admin(`/tenants/${tenantId}/credentials`, {});
  const form = new URLSearchParams({
    grant_type: 'client_credentials',
    client_id: credentialsId!,
    client_secret: apiSecret!,
    scope: 'svc_admin_api',
  }).toString();

  for (const size of sizes) {
    // Exactly `size` token replicas running: stop the others (SIGTERM, drained), start missing ones.
    for (let i = 0; i < most; i++) {
      const r = cluster.replica('token', i);
      const alive = r.child.exitCode === null && r.child.signalCode === null;
      if (i >= size && alive) {
        r.child.kill('SIGTERM');
        await r.exited;
      } else if (i < size && !alive) {
        await cluster.restart('token', i);
        await cluster.waitInRotation('token', i);
      }
    }
    await sleep(1500);
    const tokenPids = () => Array.from({ length: size }, (_, i) => cluster.replica('token', i).child.pid!);
    let running = true;
    let ok = 0;
    let failed = 0;
    let measuring = false;
    // What the failures of the measured window were: the HTTP status and the start of the body, or the error.
    const why = new Map<string, number>();
    const fail = (reason: string) => {
      failed++;
      if (measuring) why.set(reason, (why.get(reason) ?? 0) + 1);
    };
    const worker = async () => {
      while (running) {
        try {
          const res = await fetch(`${cluster.urls.auth}/token`, {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: form,
          });
          const body = await res.text();
          if (res.status === 200) ok++;
          else fail(`${res.status} ${body.slice(0, 80)}`);
        } catch (err) {
          fail(`${(err as Error).message}${(err as Error).cause ? `: ${String((err as Error).cause)}` : ''}`);
        }
      }
    };
    const workers = Array.from({ length: connections }, worker);
    await sleep(3000); // warm-up: JIT, caches, connections
    const [ok0, failed0] = [ok, failed];
    measuring = true;
    const cpu0 = cpuOf(tokenPids());
    const lb0 = cpuOf([cluster.haproxyPid]);
    const t0 = performance.now();
    await sleep(seconds * 1000);
    const elapsed = (performance.now() - t0) / 1000;
    const requests = ok - ok0;
    const tokenCpuUs = cpuOf(tokenPids()) - cpu0;
    const lbCpuUs = cpuOf([cluster.haproxyPid]) - lb0;
    running = false;
    await Promise.all(workers);
    measuring = false;
    if (why.size > 0) {
      log(`failures with ${size}: ${JSON.stringify(Object.fromEntries(why))}`);
      // What the replicas said about their 503s: the store or peer that did not answer in time.
      const causes = new Map<string, number>();
      for (let i = 0; i < size; i++)
        for (const line of cluster.replica('token', i).output.join('').split('\n')) {
          if (!line.includes('a store or peer is unavailable')) continue;
          let cause = line.slice(0, 120);
          try {
            cause = (JSON.parse(line) as { err?: { message?: string } }).err?.message?.slice(0, 120) ?? cause;
          } catch {
            /* not a JSON log line: its start is the cause */
          }
          causes.set(cause, (causes.get(cause) ?? 0) + 1);
        }
      if (causes.size > 0) log(`token replicas' 503 causes: ${JSON.stringify(Object.fromEntries(causes))}`);
    }
    const row = {
      token_replicas: size,
      tokens_per_s: Math.round(requests / elapsed),
      failures: failed - failed0,
      token_cpu_ms_per_token: Number((tokenCpuUs / 1000 / requests).toFixed(3)),
      lb_cpu_ms_per_token: Number((lbCpuUs / 1000 / requests).toFixed(3)),
    };
    log(JSON.stringify(row));
    rows.push(row);
  }
} finally {
  await cluster.stop();
  await stores.drop().catch(() => undefined);
}
console.log(JSON.stringify({ connections, seconds, rows }, null, 2));
const base = rows[0]!.token_cpu_ms_per_token!;
const failures = rows.reduce((n, r) => n + r.failures!, 0);
const growth = Math.max(...rows.map((r) => r.token_cpu_ms_per_token! / base));
console.error(
  `[token-scaling] failures ${failures}; CPU per token at most ${growth.toFixed(2)}× the 1-replica figure`,
);
process.exit(failures > 0 ? 1 : 0);
