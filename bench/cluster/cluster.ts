// Over 300 lines on purpose: one topology (replica processes, their wiring and the load balancer in front).
/**
 * Sesame as the Helm chart deploys it, on one machine: every service as its own processes (replicas), wired
 * to the stores the caller names, behind HAProxy (scripts/infra/haproxy.mjs) in the chart's shape:
 *  - public HTTP: the auth host's paths as the Ingress routes them (/token, /revoke, /introspect, /userinfo to
 *    token, /jwks to jwks, the rest to auth), the admin host to mgmt, the API host's /api/v1/interactive to
 *    mgmt; each a backend over the service's replicas, checked on their /readyz (ops port);
 *  - gRPC: one TCP address per contract (SESAME_*_ADDR), as each ClusterIP Service is, mTLS end to end
 *    (the CN and the dialled name `localhost` are checked by the callee and caller, not by the balancer).
 * A replica slot keeps its ports across restarts, so the balancer's configuration never changes.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type TestPki, createTestPki, portForChild, repoRoot, sleep } from '@sesame/testing';

export const serviceNames = ['auth', 'token', 'jwks', 'mgmt', 'activity-log', 'ciba-notifier'] as const;
export type ServiceName = (typeof serviceNames)[number];

const contractVar: Partial<Record<ServiceName, string>> = {
  auth: 'SESAME_USERS_ADDR',
  token: 'SESAME_GRANTS_ADDR',
  jwks: 'SESAME_KEYS_ADDR',
  mgmt: 'SESAME_DIRECTORY_ADDR',
  'activity-log': 'SESAME_ACTIVITY_LOGS_ADDR',
};

interface Ports {
  http: number;
  grpc: number;
  ops: number;
}

export interface Replica {
  name: ServiceName;
  index: number;
  ports: Ports;
  child: ChildProcess;
  /** The last 200 chunks of its output (for a failure's explanation). */
  output: string[];
  exited: Promise<number | null>;
}

export interface ClusterOptions {
  /** Replicas per service; default 2 each (ciba-notifier included). */
  replicas?: Partial<Record<ServiceName, number>>;
  /** The stores and the rest of the services' environment (SESAME_REDIS_URL, …). */
  env: Record<string, string>;
  log?: (msg: string) => void;
  /** The public ports (auth, admin, api); default ones the OS picks. */
  publicPorts?: { auth?: number; admin?: number; api?: number };
}

export interface Cluster {
  urls: { auth: string; admin: string; api: string; stats: string };
  adminKey: string;
  replicas: Replica[];
  haproxyPid: number;
  /** The replica of `name` at `index` as it runs now (after a restart, the new process). */
  replica(name: ServiceName, index: number): Replica;
  /** Starts the slot's process again (after it exited) and waits for /readyz. */
  restart(name: ServiceName, index: number): Promise<Replica>;
  /** Waits until the balancer routes to every replica of `name` (its health checks passed). */
  waitInRotation(name: ServiceName, index?: number): Promise<void>;
  stop(): Promise<void>;
}

/** The haproxy helpers are plain JavaScript (scripts/infra), typed here by what is used. */
interface HaproxyModule {
  ensureHaproxy(opts: { log?: (m: string) => void }): Promise<{ bin: string; env: Record<string, string> }>;
  haproxyConfig(spec: unknown): string;
  retryAfterErrorFile: string;
}

const freePorts = async (): Promise<Ports> => ({
  http: await portForChild(),
  grpc: await portForChild(),
  ops: await portForChild(),
});

export async function startCluster(opts: ClusterOptions): Promise<Cluster> {
  const log = opts.log ?? (() => {});
  const haproxy = (await import(join(repoRoot, 'scripts/infra/haproxy.mjs'))) as HaproxyModule;
  const lb = await haproxy.ensureHaproxy({ log });
  const count = (name: ServiceName) => opts.replicas?.[name] ?? 2;
  const dir = mkdtempSync(join(tmpdir(), 'sesame-cluster-'));
  const pki: TestPki = await createTestPki('cluster');
  const tls = {} as Record<ServiceName, Record<string, string>>;
  for (const name of serviceNames) {
    const files = await pki.issue(name, { dnsNames: [name, 'localhost'] });
    tls[name] = {
      SESAME_GRPC_TLS_CA: files.ca,
      SESAME_GRPC_TLS_CERT: files.cert,
      SESAME_GRPC_TLS_KEY: files.key,
    };
  }
  const pub = {
    auth: opts.publicPorts?.auth ?? (await portForChild()),
    admin: opts.publicPorts?.admin ?? (await portForChild()),
    api: opts.publicPorts?.api ?? (await portForChild()),
  };
  const statsPort = await portForChild();
  const grpcPorts = {} as Record<string, number>;
  for (const name of Object.keys(contractVar)) grpcPorts[name] = await portForChild();
  const slots = {} as Record<ServiceName, Ports[]>;
  for (const name of serviceNames)
    slots[name] = await Promise.all(Array.from({ length: count(name) }, freePorts));

  const adminKey = randomBytes(24).toString('base64url');
  const shared: Record<string, string> = {
    SESAME_ENV: 'test',
    LOG_LEVEL: 'warn',
    SESAME_AUTH_URL: `http://localhost:${pub.auth}`,
    SESAME_ADMIN_URL: `http://localhost:${pub.admin}`,
    SESAME_API_URL: `http://localhost:${pub.api}`,
    SESAME_ADMIN_KEY: adminKey,
    SESAME_ADMIN_BREAK_GLASS: 'on',
    // The balancer's X-Forwarded-For names the client (as the ingress controller's does).
    SESAME_TRUSTED_PROXIES: '127.0.0.1',
    // Drain as in the chart, shortened to the balancer's checks (every 250 ms, 3 failures to leave).
    SHUTDOWN_DELAY_MS: '1500',
    READINESS_INTERVAL_MS: '250',
    ...opts.env,
  };
  for (const [name, variable] of Object.entries(contractVar))
    shared[variable] = `localhost:${grpcPorts[name]}`;

  const current = {} as Record<ServiceName, Replica[]>;
  const spawnReplica = (name: ServiceName, index: number): Replica => {
    const ports = slots[name][index]!;
    const output: string[] = [];
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(repoRoot, 'services', name, 'src/main.ts')],
      {
        cwd: repoRoot,
        env: {
          ...process.env,
          ...shared,
          ...tls[name],
          HTTP_PORT: String(ports.http),
          GRPC_PORT: String(ports.grpc),
          OPS_PORT: String(ports.ops),
          HTTP_HOST: '127.0.0.1',
          SESAME_DATA_DIR: join(dir, `${name}-${index}`),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const keep = (d: Buffer) => {
      output.push(String(d));
      if (output.length > 200) output.shift();
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    const replica = { name, index, ports, child, output, exited };
    current[name] = current[name] ?? [];
    current[name][index] = replica;
    return replica;
  };

  const waitReady = async (r: Replica, timeoutMs = 600_000) => {
    const deadline = Date.now() + timeoutMs;
    let last = '';
    while (Date.now() < deadline) {
      if (r.child.exitCode !== null)
        throw new Error(`${r.name}-${r.index} exited with ${r.child.exitCode}:\n${r.output.join('')}`);
      try {
        const res = await fetch(`http://127.0.0.1:${r.ports.ops}/readyz`);
        last = `${res.status} ${await res.text()}`;
        if (res.status === 200) return;
      } catch (err) {
        last = String(err);
      }
      await sleep(200);
    }
    throw new Error(`${r.name}-${r.index} not ready (last: ${last}):\n${r.output.join('').slice(-3000)}`);
  };

  const errorFile = join(dir, 'retry-after.http');
  writeFileSync(errorFile, haproxy.retryAfterErrorFile);
  const cfgFile = join(dir, 'haproxy.cfg');
  writeFileSync(
    cfgFile,
    haproxy.haproxyConfig({
      errorFile,
      statsPort,
      http: [
        {
          port: pub.auth,
          routes: [
            ...['/token', '/revoke', '/introspect', '/userinfo'].map((path) => ({
              path,
              exact: true,
              backend: 'token',
            })),
            { path: '/jwks', exact: true, backend: 'jwks' },
          ],
          fallback: 'auth',
        },
        { port: pub.admin, routes: [], fallback: 'mgmt' },
        { port: pub.api, routes: [{ path: '/api/v1/interactive', backend: 'mgmt' }] },
      ],
      grpc: grpcPorts,
      replicas: slots,
    }),
  );
  const lbProcess = spawn(lb.bin, ['-f', cfgFile, '-db'], {
    env: { ...process.env, ...lb.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lbOutput: string[] = [];
  lbProcess.stdout?.on('data', (d) => lbOutput.push(String(d)));
  lbProcess.stderr?.on('data', (d) => lbOutput.push(String(d)));
  const lbExited = new Promise<void>((r) => lbProcess.once('exit', () => r()));
  await sleep(300);
  if (lbProcess.exitCode !== null) throw new Error(`haproxy exited:\n${lbOutput.join('')}`);
  log(`haproxy on ${Object.values(pub).join(', ')} (stats http://127.0.0.1:${statsPort}/)`);

  // jwks first (token waits for its signing key), then the rest: on two cores, eleven processes compiling at
  // once take longer than in waves.
  const order: ServiceName[][] = [
    ['jwks', 'mgmt'],
    ['token', 'auth', 'activity-log', 'ciba-notifier'],
  ];
  const killAll = () => {
    for (const r of Object.values(current).flat()) r.child.kill('SIGKILL');
    lbProcess.kill('SIGTERM');
  };
  // Interrupted while the replicas start (the caller's own handler comes once this returns): none is left
  // behind.
  const interrupted = () => {
    killAll();
    process.exit(130);
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  try {
    for (const wave of order) {
      const started = wave.flatMap((name) => slots[name].map((_, i) => spawnReplica(name, i)));
      await Promise.all(started.map((r) => waitReady(r)));
      log(`ready: ${wave.map((n) => `${n} ×${count(n)}`).join(', ')}`);
    }
  } catch (err) {
    killAll();
    throw err;
  } finally {
    process.off('SIGINT', interrupted);
    process.off('SIGTERM', interrupted);
  }

  const stats = async (): Promise<Map<string, string>> => {
    const res = await fetch(`http://127.0.0.1:${statsPort}/;csv`);
    const rows = (await res.text()).split('\n').map((l) => l.split(','));
    // # pxname,svname,…,status (column 17)
    return new Map(rows.filter((r) => r.length > 17).map((r) => [`${r[0]}/${r[1]}`, r[17]!]));
  };
  const waitInRotation = async (name: ServiceName, index?: number) => {
    const deadline = Date.now() + 120_000;
    const proxies = [`http-${name}`, `grpc-${name}`];
    for (;;) {
      const s = await stats();
      const servers = [...s].filter(([k]) => {
        const [px, sv] = k.split('/');
        return (
          proxies.includes(px!) &&
          sv !== 'FRONTEND' &&
          sv !== 'BACKEND' &&
          (index === undefined || sv === `${name}-${index}`)
        );
      });
      if (servers.length > 0 && servers.every(([, st]) => st === 'UP')) return;
      if (Date.now() > deadline) throw new Error(`${name} not in rotation: ${JSON.stringify(servers)}`);
      await sleep(100);
    }
  };
  try {
    for (const name of serviceNames) if (name !== 'ciba-notifier') await waitInRotation(name);
  } catch (err) {
    for (const r of Object.values(current).flat()) r.child.kill('SIGKILL');
    lbProcess.kill('SIGTERM');
    throw err;
  }

  return {
    urls: {
      auth: `http://localhost:${pub.auth}`,
      admin: `http://localhost:${pub.admin}`,
      api: `http://localhost:${pub.api}`,
      stats: `http://127.0.0.1:${statsPort}/`,
    },
    adminKey,
    get replicas() {
      return Object.values(current).flat();
    },
    haproxyPid: lbProcess.pid!,
    replica: (name, index) => current[name][index]!,
    async restart(name, index) {
      const old = current[name][index]!;
      if (old.child.exitCode === null && old.child.signalCode === null) await old.exited;
      const r = spawnReplica(name, index);
      await waitReady(r);
      return r;
    },
    waitInRotation,
    async stop() {
      const all = Object.values(current).flat();
      for (const r of all) if (r.child.exitCode === null) r.child.kill('SIGTERM');
      await Promise.race([Promise.all(all.map((r) => r.exited)), sleep(30_000)]);
      for (const r of all)
        if (r.child.exitCode === null && r.child.signalCode === null) r.child.kill('SIGKILL');
      lbProcess.kill('SIGTERM');
      await lbExited;
      rmSync(pki.dir, { recursive: true, force: true });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
