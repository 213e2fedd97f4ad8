// The real-servers mode of bench/signin.bench.ts: an empty Redis database, an isolated Mongo database and
// consumer groups of its own on the test servers, and a cleanup that removes all of them afterwards. Kept apart
// from the load driver, which does not need to know how the servers are borrowed and returned.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectMongo } from '@sesame/mongo';
import { isolatedMongoUrl } from '@sesame/testing';
import { Redis } from 'ioredis';
import { type Admin, Kafka, logLevel } from 'kafkajs';

/** The variables of the test servers (`npm run -s infra -- env`) the real mode runs on. */
export const realEnv = ['SESAME_REDIS_URL', 'SESAME_KAFKA_BROKERS', 'SESAME_MONGO_URL', 'SESAME_SMTP_URL'];

const perPodGroup = /^sesame-(?:token-directory|auth-client)-cache\./;

async function kafkaAdmin<T>(run: (admin: Admin) => Promise<T>): Promise<T> {
  const admin = new Kafka({
    clientId: 'bench-signin',
    brokers: process.env.SESAME_KAFKA_BROKERS!.split(','),
    logLevel: logLevel.NOTHING,
  }).admin();
  await admin.connect();
  try {
    return await run(admin);
  } finally {
    await admin.disconnect();
  }
}

/**
 * Borrows the test servers for one run: the platform's environment, and `cleanup` that flushes the Redis
 * database, drops the Mongo database and deletes the consumer groups the run opened.
 */
export async function prepareRealServers(runId: string) {
  const missing = [...realEnv, 'SESAME_TEST_MAILBOX_URL'].filter((v) => !process.env[v]);
  if (missing.length)
    throw new Error(`real servers need ${missing.join(', ')}: eval "$(npm run -s infra -- env)"`);
  const redisUrl = new URL(process.env.SESAME_REDIS_URL!);
  redisUrl.pathname = `/${process.env.BENCH_REDIS_DB ?? '13'}`;
  const redis = new Redis(redisUrl.href, { lazyConnect: true, maxRetriesPerRequest: 2 });
  await redis.connect();
  const keys = await redis.dbsize();
  if (keys > 0) {
    redis.disconnect();
    throw new Error(
      `Redis database ${redisUrl.pathname} holds ${keys} keys: pick an empty one (BENCH_REDIS_DB)`,
    );
  }
  const mongoUrl = isolatedMongoUrl(process.env.SESAME_MONGO_URL!, `bench-signin-${runId}`);
  const dataDir = await mkdtemp(join(tmpdir(), 'sesame-bench-signin-'));
  const group = `sesame-bench-signin-${runId}`;
  const env = {
    SESAME_ENV: 'test',
    SESAME_REDIS_URL: redisUrl.href,
    SESAME_KAFKA_BROKERS: process.env.SESAME_KAFKA_BROKERS!,
    SESAME_MONGO_URL: mongoUrl,
    SESAME_SMTP_URL: process.env.SESAME_SMTP_URL!,
    SESAME_DATA_DIR: dataDir,
    SESAME_ACTIVITY_CONSUMER_GROUP: group,
    SESAME_MAILS_PER_IP: '100000',
  };
  const groupsBefore = await kafkaAdmin(
    async (admin) => new Set((await admin.listGroups()).groups.map((g) => g.groupId)),
  );
  const cleanup = async () => {
    await redis.flushdb();
    redis.disconnect();
    const conn = await connectMongo(mongoUrl, { appName: 'bench-signin' });
    await conn.dropDatabase();
    await conn.close();
    await rm(dataDir, { recursive: true, force: true });
    // activity-log's groups, and the per-pod groups token and auth open to empty their client caches on admin
    // events (those that appeared during this run; a group still in use refuses to be deleted).
    await kafkaAdmin(async (admin) => {
      const mine = (await admin.listGroups()).groups
        .map((g) => g.groupId)
        .filter((g) => g.startsWith(group) || (perPodGroup.test(g) && !groupsBefore.has(g)));
      await admin.deleteGroups(mine).catch(() => undefined);
    });
  };
  return { env, cleanup };
}
