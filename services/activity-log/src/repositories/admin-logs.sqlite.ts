import type { EmbeddedStore, Migration } from '@sesame/embedded-store';
import type { AdminLogEntry, AdminLogPage, AdminLogQuery } from '../domain/activity-record';
import type { AdminLogRepository } from './admin-logs.repository';
import { purgeInBatches } from './purge-batches.sqlite';

const MIGRATIONS: readonly Migration[] = [
  (db) =>
    db.exec(`
      CREATE TABLE activity_log_admin_events (tenant_id TEXT NOT NULL, id TEXT NOT NULL, ts INTEGER NOT NULL,
        doc TEXT NOT NULL, UNIQUE (tenant_id, id)) STRICT;
      CREATE INDEX activity_log_admin_events_time ON activity_log_admin_events (tenant_id, ts DESC, id DESC);
      CREATE INDEX activity_log_admin_events_retention ON activity_log_admin_events (ts);
    `),
];

export interface SqliteLogOptions {
  /** How long a log entry is kept after its time (SESAME_*_RETENTION_DAYS); forever when absent. */
  retentionMs?: number;
  /** Rows deleted per transaction by purgeExpired. */
  purgeBatch?: number;
}

/**
 * Admin events in the embedded default's durable engine: one row per (tenant, id), inserted only when absent,
 * so a redelivered event changes nothing; the whole entry as JSON beside the columns the queries use.
 */
export class SqliteAdminLogRepository implements AdminLogRepository {
  private readonly sql;

  constructor(
    private readonly store: EmbeddedStore,
    private readonly opts: SqliteLogOptions = {},
  ) {
    store.migrate('activity-log.admin-logs', MIGRATIONS);
    const db = store.db;
    this.sql = {
      insert: db.prepare<[string, string, number, string]>(
        'INSERT OR IGNORE INTO activity_log_admin_events (tenant_id, id, ts, doc) VALUES (?, ?, ?, ?)',
      ),
      page: db
        .prepare<[string, number, number, number, number], string>(
          'SELECT doc FROM activity_log_admin_events WHERE tenant_id = ? AND ts >= ? AND ts < ? ORDER BY ts DESC, id DESC LIMIT ? OFFSET ?',
        )
        .pluck(),
      total: db
        .prepare<[string, number, number], number>(
          'SELECT count(*) FROM activity_log_admin_events WHERE tenant_id = ? AND ts >= ? AND ts < ?',
        )
        .pluck(),
    };
  }

  /** Deletes the events whose retention ran out (their time plus the retention is before `now`). */
  async purgeExpired(now: number): Promise<number> {
    const retentionMs = this.opts.retentionMs ?? Number.POSITIVE_INFINITY;
    if (!Number.isFinite(retentionMs)) return 0;
    return purgeInBatches(
      this.store,
      'activity_log_admin_events',
      'ts',
      now - retentionMs,
      this.opts.purgeBatch,
    );
  }

  async append(events: AdminLogEntry[]): Promise<void> {
    this.store.db.transaction(() => {
      for (const e of events) this.sql.insert.run(e.tenantId, e.id, e.timestamp, JSON.stringify(e));
    })();
  }

  async query(q: AdminLogQuery): Promise<AdminLogPage> {
    return this.store.db.transaction(() => ({
      events: Array.from(
        this.sql.page.all(q.tenantId, q.fromTime, q.toTime, q.take, q.skip),
        (doc) => JSON.parse(doc) as AdminLogEntry,
      ),
      total: this.sql.total.get(q.tenantId, q.fromTime, q.toTime) ?? 0,
    }))();
  }
}
