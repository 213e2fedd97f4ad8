/**
 * Drill: kill -9 the Sentinel-managed Redis primary under load (sign-ins and client_credentials through
 * HAProxy, every service on the Sentinel URL). Sentinel promotes the replica; the killed server is started
 * again once the load has run 15 s on the new primary, and rejoins as its replica. Targets: full service
 * within 10 s of the kill (no failure later than that), every failure a 503 with Retry-After, no answered
 * token forgotten, no event lost on the way to activity-log.
 *
 *   node --import tsx bench/drills/redis-primary.ts
 * on the HA topology's Sentinel pair (npm run test:ha starts it; by hand: `node scripts/infra/cli.mjs start`
 * redis-primary, redis-replica, sentinel-1, sentinel-2 and sentinel-3).
 */
import { join } from 'node:path';
import { repoRoot, sleep } from '@sesame/testing';
import { Redis } from 'ioredis';
import { runDrill } from './drill';

const maxRecoveryMs = Number(process.env.DRILL_MAX_RECOVERY_MS ?? 10_000);

interface InfraModule {
  env(opts: { topology?: string }): Record<string, string>;
  pidOf(name: string): number | null;
  start(name: string, opts: { log?: (m: string) => void }): Promise<unknown>;
}
const infra = (await import(join(repoRoot, 'scripts/infra/index.mjs'))) as InfraModule;
const { haPorts, MASTER_NAME } = (await import(join(repoRoot, 'scripts/infra/redis-ha.mjs'))) as {
  haPorts(): { primary: number; replica: number; sentinels: number[] };
  MASTER_NAME: string;
};

const ports = haPorts();
const sentinel = new Redis({ port: ports.sentinels[0], host: '127.0.0.1', lazyConnect: true });
const primaryPort = async () => {
  const [, port] = (await sentinel.call('SENTINEL', 'get-master-addr-by-name', MASTER_NAME)) as string[];
  return Number(port);
};
try {
  await sentinel.connect();
  await primaryPort();
} catch (err) {
  console.error(
    `[drill] no Sentinel on 127.0.0.1:${ports.sentinels[0]} (${(err as Error).message}): start the HA Redis servers first`,
  );
  process.exit(1);
}
// The services and the load's stores: Redis through the sentinels, the rest as exported or the infra's.
process.env.SESAME_REDIS_URL = infra.env({ topology: 'ha' }).SESAME_REDIS_SENTINEL_URL;

await runDrill(
  'redis-primary',
  async (_cluster, mark) => {
    const before = await primaryPort();
    const name = before === ports.primary ? 'redis-primary' : 'redis-replica';
    const pid = infra.pidOf(name);
    if (!pid) throw new Error(`no pid for ${name} (:${before})`);
    mark(`kill -9 the Redis primary ${name} (:${before}, pid ${pid})`);
    process.kill(pid, 'SIGKILL');
    const killedAt = Date.now();
    let promoted = 0;
    while (Date.now() - killedAt < 60_000) {
      const now = await primaryPort().catch(() => before);
      if (now !== before) {
        promoted = Date.now() - killedAt;
        break;
      }
      await sleep(100);
    }
    console.error(`[drill] Sentinel promoted the replica after ${promoted} ms`);
    await sleep(Math.max(0, 15_000 - (Date.now() - killedAt)));
    mark(`start ${name} again (rejoins as the replica)`);
    await infra.start(name, {});
    // The pair whole again (what runs next, e.g. test:ha's failover test, starts from a primary with a replica).
    const newPrimary = new Redis({ port: await primaryPort(), host: '127.0.0.1' });
    const deadline = Date.now() + 60_000;
    while (!/master_link_status:up|connected_slaves:[1-9]/.test(await newPrimary.info('replication'))) {
      if (Date.now() > deadline) throw new Error(`${name} did not rejoin as the replica within 60 s`);
      await sleep(250);
    }
    newPrimary.disconnect();
    await sleep(3000);
  },
  (report) => {
    const kill = report.faults[0]!;
    return kill.errors_until_ms > maxRecoveryMs
      ? [
          `${kill.fault}: last failure ${kill.errors_until_ms} ms after the kill (target ≤ ${maxRecoveryMs} ms)`,
        ]
      : [];
  },
);
