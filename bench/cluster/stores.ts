/**
 * The stores a cluster runs on: the infra's servers (`node scripts/infra/cli.mjs env`, single or HA, or the
 * SESAME_* variables already exported), with a Mongo database of the cluster's own and activity-log consumer
 * groups that start at the topics' current end (not at the beginning of every event other runs published).
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { connectMongo } from '@sesame/mongo';
import { isolatedMongoUrl, repoRoot } from '@sesame/testing';
import { startActivityGroupsAtEnd } from '../../e2e/kafka-groups';

const storeVars = ['SESAME_REDIS_URL', 'SESAME_KAFKA_BROKERS', 'SESAME_MONGO_URL', 'SESAME_SMTP_URL'];

/** The infra's addresses (`infra env`), each replaced by the exported variable of the same name when set. */
export async function infraEnv(): Promise<Record<string, string>> {
  const vars = [...storeVars, 'SESAME_TEST_MAILBOX_URL'];
  const exported = Object.fromEntries(vars.flatMap((v) => (process.env[v] ? [[v, process.env[v]!]] : [])));
  if (storeVars.every((v) => exported[v])) return exported;
  const infra = (await import(join(repoRoot, 'scripts/infra/index.mjs'))) as {
    env(opts: { topology?: string }): Record<string, string>;
  };
  return { ...infra.env({}), ...exported };
}

/**
 * The services' store variables for a cluster named `name`: its own Mongo database (dropped first when
 * `fresh`) and consumer groups at the topics' end. `drop` removes the database afterwards.
 */
export async function clusterStores(name: string, opts: { fresh?: boolean } = {}) {
  const infra = await infraEnv();
  const mongoUrl = isolatedMongoUrl(infra.SESAME_MONGO_URL!, name);
  const drop = async () => {
    const conn = await connectMongo(mongoUrl, { appName: 'sesame-cluster' });
    try {
      await conn.dropDatabase();
    } finally {
      await conn.close();
    }
  };
  if (opts.fresh) await drop();
  const group = `${name}-${randomBytes(4).toString('hex')}`;
  await startActivityGroupsAtEnd(infra.SESAME_KAFKA_BROKERS!.split(','), group);
  const env: Record<string, string> = {
    SESAME_REDIS_URL: infra.SESAME_REDIS_URL!,
    SESAME_KAFKA_BROKERS: infra.SESAME_KAFKA_BROKERS!,
    SESAME_MONGO_URL: mongoUrl,
    SESAME_SMTP_URL: infra.SESAME_SMTP_URL!,
    SESAME_ACTIVITY_CONSUMER_GROUP: group,
  };
  return { env, infra, mongoUrl, drop };
}
