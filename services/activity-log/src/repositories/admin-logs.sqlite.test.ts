import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { tempEngines } from '@sesame/embedded-store/testing';
import { adminEvent } from '../testing/fixtures';
import { adminLogRepositoryContract } from './admin-logs.contract';
import { SqliteAdminLogRepository } from './admin-logs.sqlite';

const engines = tempEngines('activity');
const T0 = 1_700_000_000_000;
const DAY = 86_400_000;

adminLogRepositoryContract('sqlite', async () => ({ repo: new SqliteAdminLogRepository(engines.open()) }));

describe('SqliteAdminLogRepository (embedded)', () => {
  const query = (repo: SqliteAdminLogRepository) =>
    repo.query({ tenantId: 't', fromTime: 0, toTime: T0 * 2, skip: 0, take: 100 });

  it('keeps admin events across a close and a new open; a redelivered one stays stored once', async () => {
    const dir = engines.dir();
    const engine = engines.open(dir);
    const event = adminEvent({ tenantId: 't', id: 'a1', timestamp: T0 });
    await new SqliteAdminLogRepository(engine).append([event]);
    engine.close();
    const repo = new SqliteAdminLogRepository(engines.open(dir));
    await repo.append([{ ...event, adminEmail: 'changed@example.com' }]);
    assert.deepEqual(await query(repo), { events: [event], total: 1 });
  });

  it('purgeExpired deletes the events past their retention, in batches', async () => {
    const repo = new SqliteAdminLogRepository(engines.open(), { retentionMs: DAY, purgeBatch: 4 });
    await repo.append(
      Array.from({ length: 10 }, (_, i) => adminEvent({ tenantId: 't', id: `a${i}`, timestamp: T0 + i })),
    );
    assert.equal(await repo.purgeExpired(T0 + DAY + 5), 5);
    assert.equal((await query(repo)).total, 5);
  });
});
