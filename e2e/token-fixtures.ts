import { createHash, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Embedded, startEmbedded } from '@sesame/embedded';
import { connectMongo } from '@sesame/mongo';
import { type PromiseClient, createClient } from '@sesame/platform';
import { grants } from '@sesame/proto';
import { isolatedMongoUrl, realServers, repoRoot } from '@sesame/testing';

/** Tells this checkout's databases from another's on the same shared servers. */
const checkoutTag = createHash('sha256').update(repoRoot).digest('hex').slice(0, 8);

/**
 * The embedded platform on the real Redis, Kafka and Mongo-wire servers, seeded with the demo tenant. With
 * `smtp`, auth sends its mail to the tests' SMTP server (SESAME_SMTP_URL, which `npm test` exports for the
 * e2e phase) instead of the in-process outbox; a missing variable fails the start. `env` adds or overrides
 * service variables.
 *
 * Its database is its own (by name and checkout: a run in another checkout never drops it), and so is its
 * activity-log consumer group: platforms sharing a group on one broker would split the flow-events partitions,
 * and a flow's record would land in whichever platform's database consumed it.
 */
export async function startRealPlatform(
  name: string,
  opts: { smtp?: boolean; env?: Record<string, string> } = {},
) {
  const servers = realServers();
  const smtpUrl = process.env.SESAME_SMTP_URL;
  if (opts.smtp && !smtpUrl) {
    throw new Error(
      'this test needs the test SMTP server: SESAME_SMTP_URL not set (run `npm test`, or `npm run infra -- up` and `eval "$(npm run -s infra -- env)"`)',
    );
  }
  const dataDir = await mkdtemp(join(tmpdir(), `sesame-${name}-`));
  const mongoUrl = isolatedMongoUrl(servers.mongoUrl, `e2e-${name}-${checkoutTag}`);
  await dropDatabase(mongoUrl); // a crashed earlier run may have left keys and tenants behind
  const platform: Embedded = await startEmbedded({
    port: 0,
    seedDemo: true,
    env: {
      LOG_LEVEL: 'warn',
      SESAME_ENV: 'test',
      SESAME_REDIS_URL: servers.redisUrl,
      SESAME_KAFKA_BROKERS: servers.kafkaBrokers.join(','),
      SESAME_MONGO_URL: mongoUrl,
      SESAME_DATA_DIR: dataDir,
      SESAME_ACTIVITY_CONSUMER_GROUP: `e2e-${name}-${randomUUID()}`,
      ...(opts.smtp ? { SESAME_SMTP_URL: smtpUrl } : {}),
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
    /** The platform's own database (dropped by stop()). */
    mongoUrl,
    grants: grantsClient,
    async stop() {
      grantsClient.close();
      await platform.stop();
      await dropDatabase(mongoUrl);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

async function dropDatabase(mongoUrl: string) {
  const conn = await connectMongo(mongoUrl, { appName: 'e2e-token-fixtures' });
  try {
    await conn.dropDatabase();
  } finally {
    await conn.close();
  }
}

/** A complete claim set as auth computes it after a passkey login. */
export function authenticatedClaims(nonce: string): grants.AuthenticatedClaims {
  const now = Math.floor(Date.now() / 1000);
  return {
    sub: '0e8f2c6a-51a3-4d8e-9b8e-6f0d7c2a9b11',
    authTime: now - 5,
    nonce,
    acr: ['ts.svc.iac.email'],
    amr: ['ts.svc.mfca'],
    svcInfo: {
      originatingDevice: {
        deviceName: 'Mac',
        osType: 'macOS',
        osVersion: '14',
        browserType: 'Safari',
        browserVersion: '17',
      },
      authenticatingDevice: {
        deviceName: 'iPhone',
        osType: 'iOS',
        osVersion: '17',
        browserType: '',
        browserVersion: '',
      },
      cappFirstLogin: now - 86_400 * 30,
    },
    email: 'person@example.com',
    emailVerified: true,
    emailUpdatedAt: now - 3600,
  };
}
