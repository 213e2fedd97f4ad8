// The HA Redis topology (`up --topology ha`): a Sentinel setup (a primary, a replica, three sentinels watching
// master "sesame") and a Redis Cluster of three primaries, all from Debian's redis-server package (a sentinel
// is redis-server with --sentinel), on loopback ports of their own and data dirs under .sesame/infra/.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { HOST, InfraError, RUNTIME_DIR, mkdirp, sleep, which } from './lib.mjs';
import { redisPing } from './probes.mjs';
import { ensureApt } from './proc.mjs';

export const MASTER_NAME = 'sesame';

function portFromEnv(name, dflt) {
  const raw = process.env[name];
  const n = raw ? Number(raw) : dflt;
  if (!Number.isInteger(n) || n <= 0 || n > 65535 - 10_002)
    throw new InfraError(`${name}=${raw} is not a valid port`);
  return n;
}

/** Ports: the Sentinel-managed pair, the three sentinels, the three cluster nodes (bus ports: +10000). */
export function haPorts() {
  const data = portFromEnv('SESAME_INFRA_REDIS_HA_PORT', 16380);
  const sentinel = portFromEnv('SESAME_INFRA_SENTINEL_PORT', 26380);
  const cluster = portFromEnv('SESAME_INFRA_REDIS_CLUSTER_PORT', 17000);
  return {
    primary: data,
    replica: data + 1,
    sentinels: [sentinel, sentinel + 1, sentinel + 2],
    cluster: [cluster, cluster + 1, cluster + 2],
  };
}

/** The connection variables for the HA topology (SESAME_REDIS_URL's Sentinel and Cluster forms). */
export function haEnv() {
  const p = haPorts();
  return {
    SESAME_REDIS_SENTINEL_URL: `redis+sentinel://${p.sentinels.map((s) => `${HOST}:${s}`).join(',')}/${MASTER_NAME}`,
    SESAME_REDIS_CLUSTER_URL: `redis+cluster://${p.cluster.map((c) => `${HOST}:${c}`).join(',')}`,
  };
}

const common = [
  '--bind',
  HOST,
  '--save',
  '',
  '--appendonly',
  'no',
  '--daemonize',
  'no',
  '--protected-mode',
  'yes',
];

/** One redis-server process: its name, port and the arguments and files of its kind. */
function server(name, port, kind, extra = () => []) {
  const dir = path.join(RUNTIME_DIR, 'redis-ha', name);
  return {
    name,
    port,
    extraPorts: () => (kind === 'cluster' ? [port() + 10_000] : []),
    // "redis-server … --port <port>" at exec time, then the title "redis-server 127.0.0.1:<port> [sentinel]"
    matches(argv) {
      const p = String(port());
      if (argv.length === 1)
        return new RegExp(`(^|/)redis-server 127\\.0\\.0\\.1:${p}( \\[(sentinel|cluster)\\])?$`).test(
          argv[0].trim(),
        );
      return (
        path.basename(argv[0]) === 'redis-server' && argv.some((a, i) => a === '--port' && argv[i + 1] === p)
      );
    },
    startTimeoutMs: 30_000,
    stopTimeoutMs: 10_000,
    async install({ log, logFile }) {
      await ensureApt('redis-server', 'redis-server', { log, logFile });
    },
    async prepare() {
      mkdirp(dir);
      const args = [...extra(dir), '--port', String(port()), ...common, '--dir', dir, '--loglevel', 'notice'];
      return { cmd: which('redis-server'), args, cwd: dir };
    },
    ready: () => redisPing(port()),
  };
}

const p = () => haPorts();

/** Sentinel rewrites its config file (it records what it learns): a fresh one at every start. */
function sentinelConfig(dir) {
  const file = path.join(dir, 'sentinel.conf');
  fs.writeFileSync(
    file,
    [
      `sentinel monitor ${MASTER_NAME} ${HOST} ${p().primary} 2`,
      `sentinel down-after-milliseconds ${MASTER_NAME} 1000`,
      `sentinel failover-timeout ${MASTER_NAME} 5000`,
      `sentinel parallel-syncs ${MASTER_NAME} 1`,
      '',
    ].join('\n'),
  );
  // The config file first, then --sentinel: redis-server reads the rest of the line as overrides.
  return [file, '--sentinel'];
}

export const HA_SERVICES = {
  'redis-primary': server('redis-primary', () => p().primary, 'data'),
  'redis-replica': server(
    'redis-replica',
    () => p().replica,
    'data',
    () => ['--replicaof', HOST, String(p().primary)],
  ),
  ...Object.fromEntries(
    [0, 1, 2].map((i) => [
      `sentinel-${i + 1}`,
      server(`sentinel-${i + 1}`, () => p().sentinels[i], 'sentinel', sentinelConfig),
    ]),
  ),
  ...Object.fromEntries(
    [0, 1, 2].map((i) => [
      `cluster-${i + 1}`,
      server(
        `cluster-${i + 1}`,
        () => p().cluster[i],
        'cluster',
        () => [
          '--cluster-enabled',
          'yes',
          // Kept across restarts: a node that comes back rejoins the cluster it was part of.
          '--cluster-config-file',
          'nodes.conf',
          '--cluster-node-timeout',
          '2000',
        ],
      ),
    ]),
  ),
};

const cli = promisify(execFile);
const redisCli = async (port, ...args) =>
  (await cli(which('redis-cli'), ['-h', HOST, '-p', String(port), ...args], { timeout: 30_000 })).stdout;

async function until(what, check, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new InfraError(`redis-ha: ${what} within ${timeoutMs / 1000}s`);
    await sleep(200);
  }
}

/**
 * After the servers answer: the cluster gets its slots once (redis-cli --cluster create, on nodes that have
 * none yet), then waits until it serves; the Sentinel pair waits until the replica is in sync and every
 * sentinel knows the primary and its peers.
 */
export async function settleHa({ log = () => {} } = {}) {
  const ports = haPorts();
  const info = await redisCli(ports.cluster[0], 'cluster', 'info');
  if (/cluster_slots_assigned:0\b/.test(info)) {
    log('→ redis-ha: creating the cluster (3 primaries)');
    await redisCli(
      ports.cluster[0],
      '--cluster',
      'create',
      ...ports.cluster.map((c) => `${HOST}:${c}`),
      '--cluster-replicas',
      '0',
      '--cluster-yes',
    );
  }
  for (const port of ports.cluster)
    await until(`cluster node ${port} did not report cluster_state:ok`, async () =>
      /cluster_state:ok/.test(await redisCli(port, 'cluster', 'info')),
    );
  await until('the replica did not finish its sync with the primary', async () =>
    /master_link_status:up/.test(await redisCli(ports.replica, 'info', 'replication')),
  );
  for (const port of ports.sentinels)
    await until(`sentinel ${port} did not see the replica and the other sentinels`, async () => {
      const master = await redisCli(port, 'sentinel', 'master', MASTER_NAME);
      const field = (name) => Number(new RegExp(`\\n${name}\\n(\\d+)`).exec(`\n${master}`)?.[1] ?? -1);
      return field('num-slaves') >= 1 && field('num-other-sentinels') >= 2;
    });
  log('✓ redis-ha: cluster serving all slots, replica in sync, sentinels agree');
}
