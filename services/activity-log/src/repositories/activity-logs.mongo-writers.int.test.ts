import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { type Connection, connectMongo } from '@sesame/mongo';
import { createLogger } from '@sesame/platform';
import { isolatedMongoUrl, realServers } from '@sesame/testing';
import { flowEvent } from '../testing/fixtures';
import { MongoActivityLogRepository } from './activity-logs.mongo';

const logger = createLogger({ service: 'activity-log-test', level: 'silent' });

describe('activity logs on real Mongo: startup indexes and two writers of one flow', () => {
  const url = isolatedMongoUrl(realServers().mongoUrl, 'activity-logs-writers');
  let a: Connection;
  let b: Connection;
  beforeAll(async () => {
    [a, b] = await Promise.all([
      connectMongo(url, { appName: 'writer-a' }),
      connectMongo(url, { appName: 'writer-b' }),
    ]);
    await a.dropDatabase();
  });
  afterAll(async () => {
    await a.dropDatabase();
    await Promise.all([a.close(), b.close()]);
  });

  it('when the other writer updates the flow between its read and its write, re-reads and keeps both writes', async () => {
    const [{ repository: first }, { repository: second }] = await Promise.all([
      MongoActivityLogRepository.open(a, { retentionDays: 90, logger }),
      MongoActivityLogRepository.open(b, { retentionDays: 90, logger }),
    ]);
    const at = 1_700_000_000_000;
    await first.applyFlowEvents([flowEvent({ flowId: 'contended', eventId: 'e0', timestamp: at })]);
    const collection = first.model.collection;
    const bulkWrite = collection.bulkWrite.bind(collection);
    let writes = 0;
    collection.bulkWrite = (async (...args: Parameters<typeof bulkWrite>) => {
      // The first write of `first` waits until `second` has written the same flow: its rev guard is stale.
      if (++writes === 1)
        await second.applyFlowEvents([flowEvent({ flowId: 'contended', eventId: 'e2', timestamp: at + 2 })]);
      return bulkWrite(...args);
    }) as typeof collection.bulkWrite;
    try {
      await first.applyFlowEvents([flowEvent({ flowId: 'contended', eventId: 'e1', timestamp: at + 1 })]);
    } finally {
      collection.bulkWrite = bulkWrite;
    }
    assert.equal(writes, 2, 'the write that lost the race was retried once');
    const [record] = await first.query({
      tenantId: 'tenant-a',
      appId: 'app-1',
      timeStart: at,
      timeEnd: at + 1,
      skip: 0,
      pageSize: 10,
    });
    assert.deepEqual(
      record?.events.map((e) => e.id),
      ['e0', 'e1', 'e2'],
    );
  });

  it('refuses to start when the server refuses the unique (tenantId, flowId) index', async () => {
    const conn = await connectMongo(isolatedMongoUrl(realServers().mongoUrl, 'activity-logs-dup'), {
      appName: 'dup',
    });
    try {
      await conn.dropDatabase();
      // Two records of one flow: the unique index cannot be built over them.
      await conn.collection('activity_logs').insertMany([
        { tenantId: 't', flowId: 'f', appId: 'a', timestamp: 1, events: [] },
        { tenantId: 't', flowId: 'f', appId: 'a', timestamp: 2, events: [] },
      ]);
      await assert.rejects(
        MongoActivityLogRepository.open(conn, { retentionDays: 90, logger }),
        /index tenantId_flowId/,
      );
    } finally {
      await conn.dropDatabase();
      await conn.close();
    }
  });
});
