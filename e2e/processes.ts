import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type RealServers,
  type TestPki,
  createTestPki,
  portForChild,
  repoRoot,
  sleep,
} from '@sesame/testing';

export const serviceNames = ['auth', 'token', 'jwks', 'mgmt', 'activity-log', 'ciba-notifier'] as const;
export type ServiceName = (typeof serviceNames)[number];

const contractVar: Partial<Record<ServiceName, string>> = {
  auth: 'SESAME_USERS_ADDR',
  token: 'SESAME_GRANTS_ADDR',
  jwks: 'SESAME_KEYS_ADDR',
  mgmt: 'SESAME_DIRECTORY_ADDR',
  'activity-log': 'SESAME_ACTIVITY_LOGS_ADDR',
};

export interface RunningProcess {
  name: ServiceName;
  child: ChildProcess;
  httpPort: number;
  grpcPort: number;
  /** /healthz, /readyz and /metrics (metrics only there, never on the public port). */
  opsPort: number;
  output: string[];
}

/**
 * Starts the six services as six processes against the real servers, wired like Kubernetes would: gRPC over
 * mTLS with a certificate per service (CN = its name, DNS SAN localhost, which is the host the clients dial)
 * from a CA made for this run, and an admin key made for this run.
 */
export async function startSixProcesses(servers: RealServers, extraEnv: Record<string, string> = {}) {
  const ports = {} as Record<ServiceName, { http: number; grpc: number; ops: number }>;
  for (const name of serviceNames)
    ports[name] = { http: await portForChild(), grpc: await portForChild(), ops: await portForChild() };
  const dataDir = mkdtempSync(join(tmpdir(), 'sesame-e2e-'));
  const pki: TestPki = await createTestPki('e2e');
  const tls = {} as Record<ServiceName, Record<string, string>>;
  for (const name of serviceNames) {
    const files = await pki.issue(name, { dnsNames: [name, 'localhost'] });
    tls[name] = {
      SESAME_GRPC_TLS_CA: files.ca,
      SESAME_GRPC_TLS_CERT: files.cert,
      SESAME_GRPC_TLS_KEY: files.key,
    };
  }
  const adminKey = randomBytes(24).toString('base64url');
  const shared: Record<string, string> = {
    SESAME_ENV: 'test',
    // The tests' ping endpoints listen on loopback.
    SESAME_ALLOW_LOOPBACK_NOTIFICATIONS: 'true',
    LOG_LEVEL: 'warn',
    SESAME_REDIS_URL: servers.redisUrl,
    SESAME_KAFKA_BROKERS: servers.kafkaBrokers.join(','),
    SESAME_MONGO_URL: servers.mongoUrl,
    SESAME_AUTH_URL: `http://localhost:${ports.auth.http}`,
    SESAME_ADMIN_URL: `http://localhost:${ports.mgmt.http}`,
    SESAME_API_URL: `http://localhost:${ports.mgmt.http}`,
    SESAME_ADMIN_KEY: adminKey,
    SESAME_ADMIN_BREAK_GLASS: 'on',
    ...extraEnv,
  };
  for (const [name, variable] of Object.entries(contractVar))
    shared[variable] = `localhost:${ports[name as ServiceName].grpc}`;
  const processes = serviceNames.map((name) =>
    spawnService(name, ports[name], { ...shared, ...tls[name] }, join(dataDir, name)),
  );
  /** One more process of a service, wired to the same peers (a second pod, or a restarted one). */
  const startAnother = async (name: ServiceName, extra: Record<string, string> = {}) =>
    spawnService(
      name,
      { http: await portForChild(), grpc: await portForChild(), ops: await portForChild() },
      { ...shared, ...tls[name], ...extra },
      mkdtempSync(join(dataDir, `${name}-`)),
    );
  return { processes, ports, dataDir, pki, adminKey, startAnother };
}

function spawnService(
  name: ServiceName,
  ports: { http: number; grpc: number; ops: number },
  shared: Record<string, string>,
  dataDir: string,
): RunningProcess {
  const output: string[] = [];
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(repoRoot, 'services', name, 'src/main.ts')],
    {
      cwd: repoRoot,
      env: {
        ...process.env,
        ...shared,
        HTTP_PORT: String(ports.http),
        GRPC_PORT: String(ports.grpc),
        OPS_PORT: String(ports.ops),
        HTTP_HOST: '127.0.0.1',
        SESAME_DATA_DIR: dataDir,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stdout?.on('data', (d) => output.push(String(d)));
  child.stderr?.on('data', (d) => output.push(String(d)));
  return { name, child, httpPort: ports.http, grpcPort: ports.grpc, opsPort: ports.ops, output };
}

/** Waits until /readyz answers 200 (or the process exits, or the timeout passes). */
export async function waitReady(p: RunningProcess, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    if (p.child.exitCode !== null)
      throw new Error(`${p.name} exited with ${p.child.exitCode}:\n${p.output.join('')}`);
    try {
      const res = await fetch(`http://127.0.0.1:${p.httpPort}/readyz`);
      last = `${res.status} ${await res.text()}`;
      if (res.status === 200) return;
    } catch (err) {
      last = String(err);
    }
    await sleep(250);
  }
  throw new Error(
    `${p.name} not ready after ${timeoutMs} ms (last: ${last}):\n${p.output.join('').slice(-3000)}`,
  );
}

/** SIGTERM, then the exit code (or null if it did not exit in time, after which it is killed). */
export function terminate(p: RunningProcess, timeoutMs = 20_000): Promise<number | null> {
  return new Promise((resolve) => {
    if (p.child.exitCode !== null) return resolve(p.child.exitCode);
    const timer = setTimeout(() => {
      p.child.kill('SIGKILL');
      resolve(null);
    }, timeoutMs);
    p.child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
    p.child.kill('SIGTERM');
  });
}
