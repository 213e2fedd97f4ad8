import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { tempEngines } from '@sesame/embedded-store/testing';
import { flowEvent } from '../testing/fixtures';
import { ACTIVITY_LOG_MIGRATIONS, SqliteActivityLogRepository } from './activity-logs.sqlite';
import { attemptsContract } from './attempts.contract';

const engines = tempEngines('activity-attempts');

attemptsContract('sqlite', async () => ({ repo: new SqliteActivityLogRepository(engines.open()) }));

describe('SqliteActivityLogRepository: the typed-address migration', () => {
  it('brings a store of schema version 1 to the latest version, keeping its records and indexing the address', async () => {
    const dir = engines.dir();
    const engine = engines.open(dir);
    // A store as the version before this one left it: only the first migration.
    engine.migrate('activity-log.activity-logs', ACTIVITY_LOG_MIGRATIONS.slice(0, 1));
    const version = engine.db.prepare('SELECT version FROM schema_versions WHERE component = ?');
    engine.db.exec(`INSERT INTO activity_log_records (tenant_id, flow_id, app_id, ts, record, versions)
      VALUES ('t', 'old', 'app-1', 1, '{"id":"old","tenantId":"t","appId":"app-1","timestamp":1,"events":[]}', '{}')`);
    const repo = new SqliteActivityLogRepository(engine);
    assert.equal(
      (version.get('activity-log.activity-logs') as { version: number }).version,
      ACTIVITY_LOG_MIGRATIONS.length,
    );
    assert.equal((await repo.getFlow('t', 'old'))?.id, 'old', 'the old record is kept');
    await repo.applyFlowEvents([
      flowEvent({ tenantId: 't', flowId: 'new', attemptedEmail: 'a@example.com' }),
    ]);
    assert.deepEqual(
      (await repo.listFlows({ tenantId: 't', filter: { attemptedEmail: 'a@example.com' }, limit: 10 })).map(
        (r) => r.id,
      ),
      ['new'],
    );
    const indexes = engine.db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'activity_log_records'")
      .pluck()
      .all();
    assert.ok(indexes.includes('activity_log_records_attempted'));
  });
});
