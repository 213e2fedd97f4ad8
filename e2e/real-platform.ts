import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type DemoSeed, type Embedded, startEmbedded } from '@sesame/embedded';
import { connectMongo } from '@sesame/mongo';
import { type PromiseClient, createClient } from '@sesame/platform';
import { grants } from '@sesame/proto';
import { isolatedMongoUrl, realServers } from '@sesame/testing';
import { startActivityGroupsAtEnd } from './kafka-groups';

export interface RealPlatform {
  platform: Embedded;
  /** The demo tenant, application and credentials seeded at start. */
  demo: DemoSeed;
  /** A Grants client on the token service (to issue codes as auth would). */
  grants: PromiseClient<grants.GrantsServiceClient>;
  /** The Mongo database of this platform alone (dropped before the start and by stop). */
  mongoUrl: string;
  stop(): Promise<void>;
}

/**
 * The one way e2e tests start the platform on the real servers: the embedded platform (all six services in
 * this process) on the real Redis, Kafka and Mongo-wire servers, with a Mongo database and a data directory
 * of its own (`name` tells them apart), seeded with the demo tenant. With `smtp`, auth sends its mail to the
 * tests' SMTP server (SESAME_SMTP_URL, which `npm test` exports for the e2e phase) instead of the in-process
 * outbox; a missing variable fails the start. `env` adds or overrides service variables.
 * (The six services as six processes: startSixProcesses in processes.ts.)
 */
export async function startRealPlatform(
  name: string,
  opts: { smtp?: boolean; env?: Record<string, string> } = {},
): Promise<RealPlatform> {
  const servers = realServers();
  const smtpUrl = process.env.SESAME_SMTP_URL;
  if (opts.smtp && !smtpUrl) {
    throw new Error(
      'this test needs the test SMTP server: SESAME_SMTP_URL not set (run `npm test`, or `npm run infra -- up` and `eval "$(npm run -s infra -- env)"`)',
    );
  }
  const dataDir = await mkdtemp(join(tmpdir(), `sesame-${name}-`));
  // One database per test process: two checkouts running the same e2e file on one set of servers (parallel
  // work on one machine) must not drop each other's tenants.
  const mongoUrl = isolatedMongoUrl(servers.mongoUrl, `e2e-${name}-${process.pid}`);
  await dropDatabase(mongoUrl); // a crashed earlier run may have left keys and tenants behind
  const activityGroup = `e2e-${name}-${randomUUID()}`;
  await startActivityGroupsAtEnd(servers.kafkaBrokers, activityGroup);
  const platform: Embedded = await startEmbedded({
    port: 0,
    seedDemo: true,
    env: {
      LOG_LEVEL: 'warn',
      SESAME_ENV: 'test',
      // The tests' ping endpoints listen on loopback.
      SESAME_ALLOW_LOOPBACK_NOTIFICATIONS: 'true',
      SESAME_REDIS_URL: servers.redisUrl,
      SESAME_KAFKA_BROKERS: servers.kafkaBrokers.join(','),
      SESAME_MONGO_URL: mongoUrl,
      SESAME_DATA_DIR: dataDir,
      // Its own activity-log consumer group: platforms sharing a group on one broker would split the
      // flow-events partitions, and a flow's record would land in whichever platform's database consumed it.
      // (starting at the topics' current end: kafka-groups.ts).
      SESAME_ACTIVITY_CONSUMER_GROUP: activityGroup,
      ...(opts.smtp ? { SESAME_SMTP_URL: smtpUrl } : {}),
      // The demo Owner's address is the same in every file, and the send limits' counters live in the shared
      // Redis: lifted here, or the files that sign the Owner in by code use up each other's allowance
      // (the limits themselves are tested against their own addresses, in auth's tests).
      SESAME_MAILS_PER_IP: '100000',
      SESAME_MAILS_PER_ADDRESS: '100000',
      SESAME_MAILS_PER_ADDRESS_TENANT: '100000',
      SESAME_MAILS_PER_ADDRESS_GLOBAL: '100000',
      SESAME_MAILS_PER_PROVEN_ADDRESS: '100000',
      ...opts.env,
    },
  });
  const grantsClient: PromiseClient<grants.GrantsServiceClient> = createClient(
    grants.GrantsServiceClient,
    platform.grpcAddresses.token!,
  );
  return {
    platform,
    demo: platform.demo!,
    grants: grantsClient,
    mongoUrl,
    async stop() {
      grantsClient.close();
      await platform.stop();
      await dropDatabase(mongoUrl);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

async function dropDatabase(mongoUrl: string) {
  const conn = await connectMongo(mongoUrl, { appName: 'e2e-real-platform' });
  try {
    await conn.dropDatabase();
  } finally {
    await conn.close();
  }
}
