import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { tempEngines } from '@sesame/embedded-store/testing';
import { authenticationFlow, flowEvent } from '../testing/fixtures';
import { activityLogRepositoryContract } from './activity-logs.contract';
import { ACTIVITY_LOG_MIGRATIONS, SqliteActivityLogRepository } from './activity-logs.sqlite';
import { supportFlowsContract } from './support-flows.contract';

const engines = tempEngines('activity');
const T0 = 1_700_000_000_000;
const DAY = 86_400_000;

/** A store of an older version: its first `version` migrations, then records written straight into the table. */
function olderStore(
  version: number,
  rows: { id: string; ts: number; userId?: string | undefined; attemptedEmail?: string }[],
): string {
  const dir = engines.dir();
  const engine = engines.open(dir);
  engine.migrate('activity-log.activity-logs', ACTIVITY_LOG_MIGRATIONS.slice(0, version));
  const insert = engine.db.prepare(
    `INSERT INTO activity_log_records (tenant_id, flow_id, app_id, ts, user_id, status, attempted_email, record, versions)
     VALUES ('t', ?, 'app-1', ?, ?, 'incomplete', ?, ?, '{}')`,
  );
  for (const { id, ts, userId, attemptedEmail } of rows) {
    const record = {
      id,
      tenantId: 't',
      appId: 'app-1',
      timestamp: ts,
      userId,
      status: 'incomplete',
      events: [],
    };
    insert.run(id, ts, userId ?? null, attemptedEmail ?? null, JSON.stringify(record));
  }
  engine.close();
  return dir;
}

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

  it('migration 3: the indexes on the person and the typed address hold only records that have them; a version 2 store keeps its records', async () => {
    const dir = olderStore(2, [
      { id: 'known', ts: T0, userId: 'user-1', attemptedEmail: 'a@example.com' },
      { id: 'started', ts: T0 + 1 },
    ]);
    const engine = engines.open(dir);
    const repo = new SqliteActivityLogRepository(engine);
    assert.equal(engine.versionOf('activity-log.activity-logs'), ACTIVITY_LOG_MIGRATIONS.length);
    const entries = (index: string) =>
      engine.db.prepare(
        `SELECT count(*) FROM activity_log_records INDEXED BY ${index} WHERE tenant_id = 't'`,
      );
    for (const index of ['user', 'app_user', 'app_alias', 'attempted']) {
      const sql = engine.db
        .prepare("SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ?")
        .pluck()
        .get(`activity_log_records_${index}`) as string;
      assert.match(sql, /WHERE (user_id|user_alias|attempted_email) IS NOT NULL$/, sql);
    }
    assert.equal(entries('activity_log_records_tenant').pluck().get(), 2, 'every record in a full index');
    await repo.applyFlowEvents(authenticationFlow('new', T0 + 2, { tenantId: 't' }).slice(0, 2));
    assert.equal(
      engine.db
        .prepare("SELECT count(*) FROM activity_log_records WHERE tenant_id = 't' AND user_id IS NULL")
        .pluck()
        .get(),
      2,
    );
    assert.deepEqual(
      (await repo.query({ ...everything, userId: 'user-1' })).map((r) => r.id),
      ['known'],
    );
    assert.deepEqual(
      (await repo.listFlows({ tenantId: 't', filter: { attemptedEmail: 'a@example.com' }, limit: 10 })).map(
        (r) => r.id,
      ),
      ['known'],
    );
    assert.deepEqual(
      (await repo.query(everything)).map((r) => r.id),
      ['new', 'started', 'known'],
    );
  });

  it('migration 4: the newest-first indexes ascend, a version 3 store keeps its records and pages, and new records fill their pages', async () => {
    const dir = olderStore(
      3,
      Array.from({ length: 6 }, (_, i) => ({
        id: `old-${i}`,
        ts: T0 + i,
        userId: i % 2 ? 'user-1' : undefined,
      })),
    );
    const engine = engines.open(dir);
    const repo = new SqliteActivityLogRepository(engine);
    assert.equal(engine.versionOf('activity-log.activity-logs'), 4);
    const indexes = engine.db
      .prepare(
        "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'activity_log_records' AND sql IS NOT NULL",
      )
      .all() as { name: string; sql: string }[];
    assert.equal(indexes.length, 9);
    for (const { name, sql } of indexes) {
      assert.doesNotMatch(sql, /DESC/, name);
      if (name !== 'activity_log_records_retention')
        assert.match(sql, /, ts, flow_id\)( WHERE \w+ IS NOT NULL)?$/, sql);
    }
    const count = (index: string, where = '') =>
      engine.db
        .prepare(
          `SELECT count(*) FROM activity_log_records INDEXED BY ${index} WHERE tenant_id = 't' ${where}`,
        )
        .pluck()
        .get();
    assert.equal(count('activity_log_records_tenant'), 6);
    assert.equal(
      count('activity_log_records_user', 'AND user_id IS NOT NULL'),
      3,
      'a partial index keeps only the records with the person',
    );
    // Pages still come newest first, by position too.
    const ids = async (filter: object, after?: { timestamp: number; id: string }) =>
      (await repo.listFlows({ tenantId: 't', filter, limit: 2, ...(after ? { after } : {}) })).map(
        (r) => r.id,
      );
    assert.deepEqual(await ids({}), ['old-5', 'old-4']);
    assert.deepEqual(await ids({}, { timestamp: T0 + 4, id: 'old-4' }), ['old-3', 'old-2']);
    assert.deepEqual(await ids({ userId: 'user-1' }), ['old-5', 'old-3']);
    assert.deepEqual(
      await ids({ appId: 'app-1', status: 'incomplete' }, { timestamp: T0 + 1, id: 'old-1' }),
      ['old-0'],
    );

    // 3,000 starts in time order: every newest-first index's leaves end up nearly full. Before migration 4 each
    // new entry went before the oldest of its range and every split left two half-full pages.
    await repo.applyFlowEvents(
      Array.from({ length: 3000 }, (_, i) =>
        flowEvent({ tenantId: 't', flowId: `new-${String(i).padStart(5, '0')}`, timestamp: T0 + 1000 + i }),
      ),
    );
    const fill = engine.db
      .prepare(
        `SELECT name, sum(pgsize - unused) * 1.0 / sum(pgsize) AS used FROM dbstat
         WHERE pagetype = 'leaf' AND name IN (${['app', 'tenant', 'status', 'app_status'].map((n) => `'activity_log_records_${n}'`).join(', ')})
         GROUP BY name`,
      )
      .all() as { name: string; used: number }[];
    assert.equal(fill.length, 4);
    for (const { name, used } of fill)
      assert.ok(used > 0.8, `${name}: leaves ${Math.round(used * 100)} % full`);
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
