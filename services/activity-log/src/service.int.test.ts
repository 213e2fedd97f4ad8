import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from '@jest/globals';
import { eventually, realServers } from '@sesame/testing';
import { configSchema } from './config';
import { MongoActivityLogRepository } from './repositories/activity-logs.mongo';
import { silentLogger } from './testing/real-kafka';
import { emptyDatabase, runActivityLog } from './testing/running-service';

const DAY = 86_400_000;

describe('activity-log service on the real servers', () => {
  it('starts on Kafka and the Mongo-wire server, is ready, and purges expired records itself when the server has no TTL index (else the TTL index is set up to)', async () => {
    const servers = realServers();
    const { url: mongoUrl, conn } = await emptyDatabase('activity-log-service');
    const { repository, refusedIndexes } = await MongoActivityLogRepository.open(conn, {
      retentionDays: 1,
      logger: silentLogger,
    });
    const now = Date.now();
    await repository.applyFlowEvents(
      [now - 3 * DAY, now - 1000].map((timestamp, i) => ({
        eventId: `e${i}`,
        flowId: `f${i}`,
        tenantId: 't',
        appId: 'a',
        timestamp,
        action: 'auth_start_oidc',
        clientIp: '203.0.113.7',
        details: {},
      })),
    );
    const dataDir = mkdtempSync(join(tmpdir(), 'activity-log-service-'));
    const config = configSchema.parse({
      SESAME_ENV: 'test',
      SESAME_MONGO_URL: mongoUrl,
      SESAME_KAFKA_BROKERS: servers.kafkaBrokers.join(','),
      SESAME_DATA_DIR: dataDir,
      SESAME_ACTIVITY_RETENTION_DAYS: '1',
      SESAME_ACTIVITY_CONSUMER_GROUP: `test-activity-log-${randomUUID()}`,
    });
    const { client, httpUrl, stop } = await runActivityLog(config, { logger: silentLogger });
    try {
      const ready = await fetch(`${httpUrl}/readyz`);
      assert.equal(ready.status, 200);
      const query = () =>
        client.queryActivityLogs({
          tenantId: 't',
          appId: 'a',
          timeStart: 0,
          timeEnd: now + 1,
          pageSize: 0,
          skip: 0,
        });
      if (refusedIndexes.includes('expireAt')) {
        const left = await eventually(query, (r) => r.activityLogs.length === 1, 15_000);
        assert.deepEqual(
          left.activityLogs.map((r) => r.id),
          ['f1'],
          'the service purged the record older than the retention',
        );
      } else {
        // MongoDB's TTL monitor runs once a minute: check what it acts on instead of waiting for it.
        const ttl = (await repository.model.collection.indexes()).find((i) => i.key.expireAt === 1);
        assert.equal(ttl?.expireAfterSeconds, 0);
        const expired = await repository.model.collection.findOne({ flowId: 'f0' });
        assert.ok(
          expired && (expired.expireAt as Date).getTime() < now,
          'the old record is due for the TTL index',
        );
      }
    } finally {
      await stop();
      await conn.dropDatabase();
      await conn.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
