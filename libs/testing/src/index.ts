import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export { type Mailbox, type MailboxMessage, mailbox } from './mailbox';

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '../../..');

export interface RealServers {
  redisUrl: string;
  kafkaBrokers: string[];
  mongoUrl: string;
}

// Test support is the one place outside a service's config module that reads the environment: the servers
// under test are named by the same variables the services read.

/** Log level for the loggers tests create: silent unless SESAME_TEST_LOG_LEVEL asks for more (e.g. debug). */
export function testLogLevel(env: Record<string, string | undefined> = process.env): string {
  return env.SESAME_TEST_LOG_LEVEL ?? 'silent';
}

/**
 * The real Redis, Kafka and Mongo-wire servers integration tests talk to. `npm test` starts them through
 * scripts/infra and exports their addresses; pointing the variables at other servers uses those instead.
 * A missing variable fails the test: an integration test never silently turns into a unit test.
 */
export function realServers(env: Record<string, string | undefined> = process.env): RealServers {
  const missing = ['SESAME_REDIS_URL', 'SESAME_KAFKA_BROKERS', 'SESAME_MONGO_URL'].filter((v) => !env[v]);
  if (missing.length) {
    throw new Error(
      `integration tests need real servers: ${missing.join(', ')} not set (run \`npm test\`, or \`npm run infra -- up\` and \`eval "$(npm run -s infra -- env)"\`)`,
    );
  }
  return {
    redisUrl: env.SESAME_REDIS_URL!,
    kafkaBrokers: env.SESAME_KAFKA_BROKERS!.split(',').map((b) => b.trim()),
    mongoUrl: env.SESAME_MONGO_URL!,
  };
}

/**
 * The HA Redis topology's URLs (SESAME_REDIS_URL's Sentinel and Cluster forms): `npm run test:ha` starts it and
 * exports them; `npm run infra -- up --topology ha` and `env --topology ha` do the same by hand.
 */
export function haRedisServers(env: Record<string, string | undefined> = process.env): {
  sentinelUrl: string;
  clusterUrl: string;
} {
  const missing = ['SESAME_REDIS_SENTINEL_URL', 'SESAME_REDIS_CLUSTER_URL'].filter((v) => !env[v]);
  if (missing.length) {
    throw new Error(
      `HA tests need the HA topology: ${missing.join(', ')} not set (run \`npm run test:ha\`, or \`npm run infra -- up --topology ha\` and \`eval "$(npm run -s infra -- env --topology ha)"\`)`,
    );
  }
  return { sentinelUrl: env.SESAME_REDIS_SENTINEL_URL!, clusterUrl: env.SESAME_REDIS_CLUSTER_URL! };
}

/** The three brokers of the HA topology's Kafka (scripts/infra/kafka-ha.mjs): replication 3, min.insync 2. */
export function haKafkaBrokers(env: Record<string, string | undefined> = process.env): string[] {
  if (!env.SESAME_KAFKA_HA_BROKERS) {
    throw new Error(
      'HA tests need the HA topology: SESAME_KAFKA_HA_BROKERS not set (run `npm run test:ha`, or `npm run infra -- up --topology ha` and `eval "$(npm run -s infra -- env --topology ha)"`)',
    );
  }
  return env.SESAME_KAFKA_HA_BROKERS.split(',').map((b) => b.trim());
}

/** Mongo URL with a database of its own, so concurrent test files never see each other's data. */
export function isolatedMongoUrl(base: string, name: string): string {
  const url = new URL(base);
  url.pathname = `/${name.replace(/[^\w-]/g, '_').slice(0, 50)}`;
  return url.toString();
}

type ServerName = 'redis' | 'kafka' | 'mongo' | 'smtp' | `kafka-${1 | 2 | 3}`;

interface InfraControl {
  start(name: ServerName): Promise<void>;
  stop(name: ServerName): Promise<void>;
  /** Pid of one running server of ours, or null. */
  pidOf(name: ServerName): number | null;
}

/** Stops and starts the project's own servers (for outage tests); only for servers scripts/infra started. */
export async function infraControl(): Promise<InfraControl> {
  const modulePath = join(repoRoot, 'scripts/infra/index.mjs');
  return (await import(modulePath)) as InfraControl;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls until the predicate holds or the timeout passes; returns the last value for assertions. */
export async function eventually<T>(
  fn: () => Promise<T>,
  ok: (v: T) => boolean,
  timeoutMs = 10_000,
  everyMs = 50,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last = await fn();
  while (!ok(last) && Date.now() < deadline) {
    await sleep(everyMs);
    last = await fn();
  }
  return last;
}

/**
 * The status `request` answers, polled every 100 ms until it is `status` or `timeoutMs` passed (then the last
 * one, for the assertion): a service that is back within a deadline.
 */
export const statusWithin = (request: () => Promise<{ status: number }>, status: number, timeoutMs: number) =>
  eventually(
    () => request().then((r) => r.status),
    (s) => s === status,
    timeoutMs,
    100,
  );

/** Ports portForChild returned in this process. */
const handedOut = new Set<number>();

/**
 * A port for a child process to bind later, chosen below the kernel's ephemeral range: a port the OS hands
 * out for `listen(0)` can be taken by any outgoing connection before the child binds it, one below the
 * range can only be taken by another listener asking for it by number.
 */
export async function portForChild(): Promise<number> {
  const [low] = (await readFile('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').catch(() => '32768 60999'))
    .trim()
    .split(/\s+/)
    .map(Number);
  const top = Math.max(2048, (low ?? 32768) - 1);
  const bottom = Math.max(1024, top - 12_000);
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = bottom + Math.floor(Math.random() * (top - bottom));
    // A port handed out earlier is free until its child binds it: never hand it out twice (twelve picks for
    // the six processes collided now and then, and a service failed to bind its gRPC port).
    if (handedOut.has(port)) continue;
    if (await canBind(port)) {
      handedOut.add(port);
      return port;
    }
  }
  throw new Error(`no free port between ${bottom} and ${top}`);
}

function canBind(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '0.0.0.0', () => server.close(() => resolve(true)));
  });
}
export * from './tcp-proxy';
export * from './token-requests';
export { type Gen, seeded, testSeed } from './generated';
export { createTestPki, type TestPki, type TlsFiles } from './grpc-pki';
export { type KillAtRandomOptions, killAtRandom } from './kill-at-random';
export { isTestOnly, type Layering, readLayering } from './layering';
