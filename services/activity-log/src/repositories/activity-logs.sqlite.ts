// Over 300 lines on purpose: one adapter of the ActivityLogRepository port on the embedded engine (schema and its
// four migrations, writes, the support listings' keyset reads, erasure, export); its pieces share the prepared statements.
import type { EmbeddedStore, Migration } from '@sesame/embedded-store';
import type { FlowEventFacts } from '@sesame/flow-events';
import type { ActivityLogQuery, ActivityRecord, FlowState } from '../domain/activity-record';
import type { EraseTarget, FlowListFilter, FlowListQuery } from '../domain/flow-query';
import { foldFlow, groupByFlow } from '../domain/fold';
import { type ActivityLogRepository, type ExportQuery, prefixEnd } from './activity-logs.repository';
import type { SqliteLogOptions } from './admin-logs.sqlite';
import { exportByKeyset } from './export-by-keyset';
import { purgeInBatches } from './purge-batches.sqlite';
import { flowListShape, specQueryShape } from './query-shapes';

/** The indexes on a member a flow may never have (migration 3): name, columns, the member. */
const PARTIAL_INDEXES = [
  ['activity_log_records_app_user', 'tenant_id, app_id, user_id, ts DESC, flow_id DESC', 'user_id'],
  ['activity_log_records_app_alias', 'tenant_id, app_id, user_alias, ts DESC, flow_id DESC', 'user_alias'],
  ['activity_log_records_user', 'tenant_id, user_id, ts DESC, flow_id DESC', 'user_id'],
  ['activity_log_records_attempted', 'tenant_id, attempted_email, ts DESC, flow_id DESC', 'attempted_email'],
] as const;

/**
 * Every index that lists records newest first (all but retention's): name, equality columns, the member a
 * partial one holds records with (migration 4).
 */
const PAGE_ORDER_INDEXES = [
  ['activity_log_records_app', 'tenant_id, app_id', undefined],
  ['activity_log_records_app_user', 'tenant_id, app_id, user_id', 'user_id'],
  ['activity_log_records_app_alias', 'tenant_id, app_id, user_alias', 'user_alias'],
  ['activity_log_records_tenant', 'tenant_id', undefined],
  ['activity_log_records_user', 'tenant_id, user_id', 'user_id'],
  ['activity_log_records_status', 'tenant_id, status', undefined],
  ['activity_log_records_app_status', 'tenant_id, app_id, status', undefined],
  ['activity_log_records_attempted', 'tenant_id, attempted_email', 'attempted_email'],
] as const;

/**
 * One row per (tenant, flow): the record and its fold versions as JSON, beside a column for every field a
 * query filters or sorts on. The indexes are Mongo's (activity-logs.mongo.ts), one per query shape of
 * query-shapes.ts, each ending in (ts, flow_id) so a page is read in index order (backwards: newest first) and
 * stops at its limit; `ts` alone serves retention. Since migration 3 the four on the person and the typed
 * address hold only the records that have them (partial indexes; Mongo's stay whole), and since migration 4
 * they all ascend (Mongo's descend).
 */
export const ACTIVITY_LOG_MIGRATIONS: readonly Migration[] = [
  (db) =>
    db.exec(`
      CREATE TABLE activity_log_records (tenant_id TEXT NOT NULL, flow_id TEXT NOT NULL, app_id TEXT NOT NULL,
        ts INTEGER NOT NULL, user_id TEXT, user_alias TEXT, status TEXT, flow_type TEXT, auth_method_type TEXT,
        record TEXT NOT NULL, versions TEXT NOT NULL, UNIQUE (tenant_id, flow_id)) STRICT;
      CREATE INDEX activity_log_records_app ON activity_log_records (tenant_id, app_id, ts DESC, flow_id DESC);
      CREATE INDEX activity_log_records_app_user ON activity_log_records (tenant_id, app_id, user_id, ts DESC, flow_id DESC);
      CREATE INDEX activity_log_records_app_alias ON activity_log_records (tenant_id, app_id, user_alias, ts DESC, flow_id DESC);
      CREATE INDEX activity_log_records_tenant ON activity_log_records (tenant_id, ts DESC, flow_id DESC);
      CREATE INDEX activity_log_records_user ON activity_log_records (tenant_id, user_id, ts DESC, flow_id DESC);
      CREATE INDEX activity_log_records_status ON activity_log_records (tenant_id, status, ts DESC, flow_id DESC);
      CREATE INDEX activity_log_records_app_status ON activity_log_records (tenant_id, app_id, status, ts DESC, flow_id DESC);
      CREATE INDEX activity_log_records_retention ON activity_log_records (ts);
    `),
  // 2: the address typed in the flow (issue 38), listed, counted and erased by (tenant, address). Records
  // written before it carry no typed address, so there is nothing to fill in.
  (db) =>
    db.exec(`
      ALTER TABLE activity_log_records ADD COLUMN attempted_email TEXT;
      CREATE INDEX activity_log_records_attempted ON activity_log_records (tenant_id, attempted_email, ts DESC, flow_id DESC);
    `),
  // 3: the four indexes on a member a flow may never have (the person's id and alias, the typed address) hold
  // only the records that have it (partial indexes). A flow that never got past its first page (most of a
  // flood of sign-in starts) then writes 7 index entries instead of 11, and the person's id or address, once
  // known, is one insert into each instead of a move. Every query on these indexes names the member by
  // equality or range, which SQLite's planner takes as implying IS NOT NULL (query-plans.sqlite.test.ts).
  (db) =>
    db.exec(
      PARTIAL_INDEXES.map(
        ([name, columns, member]) =>
          `DROP INDEX ${name}; CREATE INDEX ${name} ON activity_log_records (${columns}) WHERE ${member} IS NOT NULL;`,
      ).join('\n'),
    ),
  // 4: the same indexes in ascending order of (ts, flow_id). SQLite reads them backwards for the newest-first
  // pages just as well (query-plans.sqlite.test.ts), and a new record now goes at the end of its range instead
  // of its start: a page that fills splits off a new one and stays full (SQLite's split for an append), where
  // an insert before the oldest entries left every page about half empty. The indexes take about a third less
  // room, and a sign-in start dirties fewer pages of the log (docs/performance.md).
  (db) =>
    db.exec(
      PAGE_ORDER_INDEXES.map(
        ([name, columns, member]) =>
          `DROP INDEX ${name}; CREATE INDEX ${name} ON activity_log_records (${columns}, ts, flow_id)${member ? ` WHERE ${member} IS NOT NULL` : ''};`,
      ).join('\n'),
    ),
];

type Row = { record: string; versions: string };

/** The erasures (a person's records, an address's attempts), each on its own index. */
export const ERASE_SQL = {
  userId:
    'DELETE FROM activity_log_records INDEXED BY activity_log_records_user WHERE tenant_id = ? AND user_id = ?',
  attemptedEmail:
    'DELETE FROM activity_log_records INDEXED BY activity_log_records_attempted WHERE tenant_id = ? AND attempted_email = ?',
} as const;
type Param = string | number;

/** Filter members and their columns: the equality members of a support listing. */
const COLUMNS = {
  appId: 'app_id',
  userId: 'user_id',
  status: 'status',
  flowType: 'flow_type',
  authMethodType: 'auth_method_type',
  attemptedEmail: 'attempted_email',
} as const;

/**
 * Activity records in the embedded default's durable engine. A batch of flow events is folded in one
 * synchronous piece of the engine's turn transaction (its own savepoint: read each flow's state, fold, upsert;
 * EmbeddedStore.inTurn), so a batch is stored whole or not at all and no other write interleaves: the fold's idempotency (de-duplication by event id, order-independence) is the
 * domain's, exactly as in memory. Reads page by position (keyset), never by offset over the tenant's records.
 */
/** Every record field kept in a column of its own: the filter members, the time and the alias. */
const FILTER_COLUMNS = { ...COLUMNS, timestamp: 'ts', userAlias: 'user_alias' } as const satisfies Partial<
  Record<keyof ActivityRecord, string>
>;

export class SqliteActivityLogRepository implements ActivityLogRepository {
  private readonly sql;
  /** The UPDATE of a known flow's record, per set of changed filter columns (a handful). */
  private readonly updates = new Map<string, { run(...params: (Param | null)[]): unknown }>();
  private readonly statements = new Map<string, ReturnType<EmbeddedStore['db']['prepare']>>();

  constructor(
    private readonly store: EmbeddedStore,
    private readonly opts: SqliteLogOptions = {},
  ) {
    store.migrate('activity-log.activity-logs', ACTIVITY_LOG_MIGRATIONS);
    const db = store.db;
    this.sql = {
      state: db.prepare<[string, string], Row>(
        'SELECT record, versions FROM activity_log_records WHERE tenant_id = ? AND flow_id = ?',
      ),
      upsert: db.prepare<(Param | null)[]>(
        `INSERT INTO activity_log_records (tenant_id, flow_id, app_id, ts, user_id, user_alias, status, flow_type,
           auth_method_type, attempted_email, record, versions) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (tenant_id, flow_id) DO UPDATE SET app_id = excluded.app_id, ts = excluded.ts,
           user_id = excluded.user_id, user_alias = excluded.user_alias, status = excluded.status,
           flow_type = excluded.flow_type, auth_method_type = excluded.auth_method_type,
           attempted_email = excluded.attempted_email, record = excluded.record, versions = excluded.versions`,
      ),
      record: db
        .prepare<[string, string], string>(
          'SELECT record FROM activity_log_records WHERE tenant_id = ? AND flow_id = ?',
        )
        .pluck(),
      eraseUser: db.prepare<[string, string]>(ERASE_SQL.userId),
      eraseAddress: db.prepare<[string, string]>(ERASE_SQL.attemptedEmail),
      // The first address from the prefix on, and the next one after a position, below the prefix's end: one
      // seek on the address index each.
      firstAddress: db
        .prepare<[string, string, string], string>(
          `SELECT attempted_email FROM activity_log_records INDEXED BY activity_log_records_attempted
           WHERE tenant_id = ? AND attempted_email >= ? AND attempted_email < ? ORDER BY attempted_email LIMIT 1`,
        )
        .pluck(),
      nextAddress: db
        .prepare<[string, string, string], string>(
          `SELECT attempted_email FROM activity_log_records INDEXED BY activity_log_records_attempted
           WHERE tenant_id = ? AND attempted_email > ? AND attempted_email < ? ORDER BY attempted_email LIMIT 1`,
        )
        .pluck(),
    };
  }

  /** Deletes the records whose retention ran out (their flow's start plus the retention is before `now`). */
  async purgeExpired(now: number): Promise<number> {
    const retentionMs = this.opts.retentionMs ?? Number.POSITIVE_INFINITY;
    if (!Number.isFinite(retentionMs)) return 0;
    return purgeInBatches(this.store, 'activity_log_records', 'ts', now - retentionMs, this.opts.purgeBatch);
  }

  async applyFlowEvents(events: FlowEventFacts[]): Promise<void> {
    await this.store.inTurn(() => {
      for (const group of groupByFlow(events).values()) {
        const { tenantId, flowId } = group[0]!;
        const row = this.sql.state.get(tenantId, flowId);
        const current: FlowState | undefined = row && {
          record: JSON.parse(row.record) as ActivityRecord,
          versions: JSON.parse(row.versions) as FlowState['versions'],
        };
        const next = foldFlow(current, group, row && Buffer.byteLength(row.record));
        if (!next) continue;
        const r = next.record;
        if (current) {
          this.update(current.record, r, JSON.stringify(next.versions));
          continue;
        }
        // biome-ignore format: one column a line reads against the INSERT above
        this.sql.upsert.run(
          r.tenantId, r.id, r.appId, r.timestamp, r.userId ?? null, r.userAlias ?? null, r.status ?? null,
          r.flowType ?? null, r.authMethodType ?? null, r.attemptedEmail ?? null, JSON.stringify(r),
          JSON.stringify(next.versions),
        );
      }
    });
  }

  /**
   * A known flow's record: the JSON and only the filter columns whose value changed. SQLite rewrites every
   * index on a column an UPDATE sets, changed or not, so setting all of them (as the upsert does) rewrote the
   * nine indexes at each of a flow's events; a sign-in's later events change two or three of them.
   */
  private update(before: ActivityRecord, r: ActivityRecord, versions: string): void {
    const changed = (Object.keys(FILTER_COLUMNS) as (keyof typeof FILTER_COLUMNS)[]).filter(
      (field) => (before[field] ?? null) !== (r[field] ?? null),
    );
    const key = changed.join(',');
    let statement = this.updates.get(key);
    if (!statement) {
      const sets = ['record = ?', 'versions = ?', ...changed.map((field) => `${FILTER_COLUMNS[field]} = ?`)];
      statement = this.store.db.prepare<(Param | null)[]>(
        `UPDATE activity_log_records SET ${sets.join(', ')} WHERE tenant_id = ? AND flow_id = ?`,
      );
      this.updates.set(key, statement);
    }
    statement.run(JSON.stringify(r), versions, ...changed.map((field) => r[field] ?? null), r.tenantId, r.id);
  }

  /** A prepared statement per distinct query text (a handful of filter shapes), built once. */
  private prepared(text: string) {
    let statement = this.statements.get(text);
    if (!statement) {
      statement = this.store.db.prepare(text).pluck();
      this.statements.set(text, statement);
    }
    return statement;
  }

  private records({ text, params }: SqlQuery): ActivityRecord[] {
    // Array.from: the driver's arrays are made in the realm that loaded the native module.
    return Array.from(
      this.prepared(text).all(params) as string[],
      (doc) => JSON.parse(doc) as ActivityRecord,
    );
  }

  async query(q: ActivityLogQuery): Promise<ActivityRecord[]> {
    return this.records(specQuerySql(q));
  }

  async listFlows(q: FlowListQuery): Promise<ActivityRecord[]> {
    return this.records(listFlowsSql(q));
  }

  async getFlow(tenantId: string, flowId: string): Promise<ActivityRecord | undefined> {
    const doc = this.sql.record.get(tenantId, flowId);
    return doc === undefined ? undefined : (JSON.parse(doc) as ActivityRecord);
  }

  exportFlows(q: ExportQuery): AsyncIterable<ActivityRecord[]> {
    return exportByKeyset((query) => this.listFlows(query), q);
  }

  async countFlows(tenantId: string, filter: FlowListFilter): Promise<number> {
    const { text, params } = countFlowsSql(tenantId, filter);
    return this.prepared(text).get(params) as number;
  }

  async attemptedEmails(tenantId: string, prefix: string, limit: number): Promise<string[]> {
    const found: string[] = [];
    const end = prefixEnd(prefix);
    while (found.length < limit) {
      const next = found.length
        ? this.sql.nextAddress.get(tenantId, found.at(-1)!, end)
        : this.sql.firstAddress.get(tenantId, prefix, end);
      if (next === undefined) break;
      found.push(next);
    }
    return found;
  }

  async eraseFlows(tenantId: string, target: EraseTarget): Promise<number> {
    return this.store.inTurn(() => {
      let erased = 0;
      if (target.userId !== undefined) erased += this.sql.eraseUser.run(tenantId, target.userId).changes;
      if (target.attemptedEmail !== undefined)
        erased += this.sql.eraseAddress.run(tenantId, target.attemptedEmail).changes;
      return erased;
    });
  }
}

/** A statement's text and its parameters. */
export interface SqlQuery {
  text: string;
  params: Param[];
}

/**
 * The index of each query shape (query-shapes.ts), by the members it matches: named in the statement, because
 * without statistics SQLite's planner prefers a time range on the tenant's index to the person's or the
 * status's index, and would read every record of the tenant in the range (query-plans.sqlite.test.ts).
 */
const INDEX_OF: Readonly<Record<string, string>> = {
  tenantId: 'activity_log_records_tenant',
  'tenantId,appId': 'activity_log_records_app',
  'tenantId,userId': 'activity_log_records_user',
  'tenantId,status': 'activity_log_records_status',
  'tenantId,appId,userId': 'activity_log_records_app_user',
  'tenantId,appId,status': 'activity_log_records_app_status',
  'tenantId,appId,userAlias': 'activity_log_records_app_alias',
  'tenantId,attemptedEmail': 'activity_log_records_attempted',
};

const indexOf = (equality: string[]) => {
  const index = INDEX_OF[equality.join(',')];
  if (!index) throw new Error(`no index for the query shape ${equality.join(', ')}`);
  return index;
};

const recordsWhere = (equality: string[], where: string[], tail: string) =>
  `SELECT record FROM activity_log_records INDEXED BY ${indexOf(equality)} WHERE ${where.join(' AND ')} ORDER BY ts DESC, flow_id DESC ${tail}`;

/** How many records a support filter matches, on the listing's index. */
export function countFlowsSql(tenantId: string, filter: FlowListFilter): SqlQuery {
  const { where, params } = flowWhere({ tenantId, filter, limit: 0 });
  const index = indexOf(flowListShape(filter).equality);
  return {
    text: `SELECT count(*) FROM activity_log_records INDEXED BY ${index} WHERE ${where.join(' AND ')}`,
    params,
  };
}

/** The spec's activity-logs query (spec 4.6): by app and time, optionally by user id and alias; skip counted. */
export function specQuerySql(q: ActivityLogQuery): SqlQuery {
  const where = ['tenant_id = ?', 'app_id = ?', 'ts >= ?', 'ts < ?'];
  const params: Param[] = [q.tenantId, q.appId, q.timeStart, q.timeEnd];
  if (q.userId !== undefined) where.push('user_id = ?') && params.push(q.userId);
  if (q.userAlias !== undefined) where.push('user_alias = ?') && params.push(q.userAlias);
  const { equality } = specQueryShape(q);
  return { text: recordsWhere(equality, where, 'LIMIT ? OFFSET ?'), params: [...params, q.pageSize, q.skip] };
}

/** A support listing: the filter's members, the time range, and the position after the previous page's last record. */
export function listFlowsSql(q: FlowListQuery): SqlQuery {
  const { where, params } = flowWhere(q);
  const { equality } = flowListShape(q.filter);
  return { text: recordsWhere(equality, where, 'LIMIT ?'), params: [...params, q.limit] };
}

function flowWhere(q: FlowListQuery): { where: string[]; params: Param[] } {
  const where = ['tenant_id = ?'];
  const params: Param[] = [q.tenantId];
  for (const [field, column] of Object.entries(COLUMNS)) {
    const value = q.filter[field as keyof typeof COLUMNS];
    if (value !== undefined) where.push(`${column} = ?`) && params.push(value);
  }
  if (q.filter.from !== undefined) where.push('ts >= ?') && params.push(q.filter.from);
  // One upper bound, the stronger: SQLite bounds the index range by one of two, and with the time bound an
  // export's page after a position would read every record of the pages before it again.
  const to = q.filter.to;
  if (q.after && (to === undefined || q.after.timestamp < to))
    where.push('(ts, flow_id) < (?, ?)') && params.push(q.after.timestamp, q.after.id);
  else if (to !== undefined) where.push('ts < ?') && params.push(Math.min(to, Number.MAX_SAFE_INTEGER));
  return { where, params };
}
