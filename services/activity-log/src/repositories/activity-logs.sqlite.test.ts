import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { tempEngines } from '@sesame/embedded-store/testing';
import { authenticationFlow, flowEvent } from '../testing/fixtures';
import { activityLogRepositoryContract } from './activity-logs.contract';
import { SqliteActivityLogRepository } from './activity-logs.sqlite';
import { supportFlowsContract } from './support-flows.contract';

const engines = tempEngines('activity');
const T0 = 1_700_000_000_000;
const DAY = 86_400_000;

activityLogRepositoryContract('sqlite', async () => ({
  repo: new SqliteActivityLogRepository(engines.open()),
}));
supportFlowsContract('sqlite', async () => ({ repo: new SqliteActivityLogRepository(engines.open()) }));

describe('SqliteActivityLogRepository (embedded)', () => {
  const everything = { tenantId: 't', appId: 'app-1', timeStart: 0, timeEnd: T0 * 2, skip: 0, pageSize: 100 };

  it('keeps records across a close and a new open, and folds redelivered events into them without duplicates', async () => {
    const dir = engines.dir();
    let engine = engines.open(dir);
    const flow = authenticationFlow('f1', T0, { tenantId: 't' });
    await new SqliteActivityLogRepository(engine).applyFlowEvents(flow.slice(0, 2));
    engine.close();

    engine = engines.open(dir);
    const repo = new SqliteActivityLogRepository(engine);
    const [before] = await repo.query(everything);
    assert.deepEqual(
      before?.events.map((e) => e.id),
      ['f1-e1', 'f1-e2'],
    );
    await repo.applyFlowEvents(flow);
    const [after] = await repo.query(everything);
    assert.deepEqual(
      after?.events.map((e) => e.id),
      ['f1-e1', 'f1-e2', 'f1-e3', 'f1-e4'],
    );
    assert.equal(after?.status, 'success');
    assert.deepEqual(await repo.getFlow('t', 'f1'), after);
  });

  it('purgeExpired deletes the records past their retention, in batches, and keeps the rest', async () => {
    const repo = new SqliteActivityLogRepository(engines.open(), { retentionMs: DAY, purgeBatch: 7 });
    const old = Array.from({ length: 30 }, (_, i) =>
      flowEvent({ tenantId: 't', flowId: `old-${i}`, timestamp: T0 + i }),
    );
    await repo.applyFlowEvents([...old, flowEvent({ tenantId: 't', flowId: 'new', timestamp: T0 + DAY })]);
    assert.equal(
      await repo.purgeExpired(T0 + DAY),
      0,
      'exactly at the end of its retention a record is kept',
    );
    assert.equal(await repo.purgeExpired(T0 + DAY + 1), 1, 'a millisecond later it goes');
    assert.equal(await repo.purgeExpired(T0 + DAY + 100), 29);
    assert.deepEqual(
      (await repo.query(everything)).map((r) => r.id),
      ['new'],
    );
  });
});
