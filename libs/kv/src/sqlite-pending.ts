import type { EmbeddedStore } from '@sesame/embedded-store';
import type { PendingGroup, PendingPool } from './port';

/**
 * Migration 3 of the embedded KV: which entries are pending (KeyValueStore.addPending), by pool and group, and
 * how many each group and pool holds (kept, not counted: a count(*) over 100,000 rows per sign-in start would
 * cost milliseconds).
 */
export const PENDING_TABLES = `
  CREATE TABLE kv_pending (ns TEXT NOT NULL, pool TEXT NOT NULL, key TEXT NOT NULL, grp TEXT NOT NULL,
    expires_at INTEGER NOT NULL, PRIMARY KEY (ns, pool, key)) WITHOUT ROWID, STRICT;
  CREATE INDEX kv_pending_age ON kv_pending (ns, pool, expires_at);
  CREATE INDEX kv_pending_group_age ON kv_pending (ns, pool, grp, expires_at);
  CREATE TABLE kv_pending_groups (ns TEXT NOT NULL, pool TEXT NOT NULL, grp TEXT NOT NULL, n INTEGER NOT NULL,
    PRIMARY KEY (ns, pool, grp)) WITHOUT ROWID, STRICT;
  CREATE TABLE kv_pending_pools (ns TEXT NOT NULL, pool TEXT NOT NULL, n INTEGER NOT NULL,
    PRIMARY KEY (ns, pool)) WITHOUT ROWID, STRICT;
`;

type Member = { key: string; grp: string };

/**
 * The pending entries of the embedded KV in one namespace. Its methods run inside the adapter's transaction
 * (sqlite.ts), which also writes the entries' values: counting, evicting and writing commit together.
 */
export class SqlitePendingPools {
  private readonly sql;

  constructor(
    db: EmbeddedStore['db'],
    private readonly ns: string,
    /** Deletes an entry's value (the adapter's kv_entries row). */
    private readonly deleteEntry: (key: string) => void,
  ) {
    this.sql = {
      expired: db.prepare<[string, string, number], Member>(
        'SELECT key, grp FROM kv_pending WHERE ns = ? AND pool = ? AND expires_at <= ? ORDER BY expires_at',
      ),
      oldestInPool: db.prepare<[string, string, number], Member>(
        'SELECT key, grp FROM kv_pending WHERE ns = ? AND pool = ? ORDER BY expires_at, key LIMIT ?',
      ),
      oldestInGroup: db.prepare<[string, string, string, number], Member>(
        'SELECT key, grp FROM kv_pending WHERE ns = ? AND pool = ? AND grp = ? ORDER BY expires_at, key LIMIT ?',
      ),
      member: db.prepare<[string, string, string], { grp: string; expires_at: number }>(
        'SELECT grp, expires_at FROM kv_pending WHERE ns = ? AND pool = ? AND key = ?',
      ),
      insert: db.prepare<[string, string, string, string, number]>(
        'INSERT INTO kv_pending (ns, pool, key, grp, expires_at) VALUES (?, ?, ?, ?, ?)',
      ),
      remove: db.prepare<[string, string, string]>(
        'DELETE FROM kv_pending WHERE ns = ? AND pool = ? AND key = ?',
      ),
      groupCount: db
        .prepare<[string, string, string], number>(
          'SELECT n FROM kv_pending_groups WHERE ns = ? AND pool = ? AND grp = ?',
        )
        .pluck(),
      poolCount: db
        .prepare<[string, string], number>('SELECT n FROM kv_pending_pools WHERE ns = ? AND pool = ?')
        .pluck(),
      groupAdd: db.prepare<[string, string, string, number]>(
        'INSERT INTO kv_pending_groups (ns, pool, grp, n) VALUES (?, ?, ?, ?) ON CONFLICT (ns, pool, grp) DO UPDATE SET n = n + excluded.n',
      ),
      groupDropEmpty: db.prepare<[string, string, string]>(
        'DELETE FROM kv_pending_groups WHERE ns = ? AND pool = ? AND grp = ? AND n <= 0',
      ),
      poolAdd: db.prepare<[string, string, number]>(
        'INSERT INTO kv_pending_pools (ns, pool, n) VALUES (?, ?, ?) ON CONFLICT (ns, pool) DO UPDATE SET n = n + excluded.n',
      ),
    };
  }

  /** Counts `key` pending in its group and pool, evicting the oldest to stay within the limits: the keys evicted. */
  add(key: string, expiresAt: number, limits: PendingPool, now: number): string[] {
    const { pool, group } = limits;
    for (const gone of this.sql.expired.all(this.ns, pool, now)) this.remove(pool, gone);
    const existing = this.sql.member.get(this.ns, pool, key);
    if (existing) this.remove(pool, { key, grp: existing.grp });
    const evicted: string[] = [];
    const evict = (members: Member[]) => {
      for (const m of members) {
        this.remove(pool, m);
        this.deleteEntry(m.key);
        evicted.push(m.key);
      }
    };
    const inGroup = this.sql.groupCount.get(this.ns, pool, group) ?? 0;
    if (inGroup >= limits.groupMax)
      evict(this.sql.oldestInGroup.all(this.ns, pool, group, inGroup - limits.groupMax + 1));
    const inPool = this.sql.poolCount.get(this.ns, pool) ?? 0;
    if (inPool >= limits.poolMax)
      evict(this.sql.oldestInPool.all(this.ns, pool, inPool - limits.poolMax + 1));
    this.sql.insert.run(this.ns, pool, key, group, expiresAt);
    this.count(pool, group, 1);
    return evicted;
  }

  /** Takes `key` out of its pool: true when it was pending there and had not expired. */
  confirm(key: string, where: PendingGroup, now: number): boolean {
    const member = this.sql.member.get(this.ns, where.pool, key);
    if (!member) return false;
    this.remove(where.pool, { key, grp: member.grp });
    return member.grp === where.group && member.expires_at > now;
  }

  private remove(pool: string, m: Member): void {
    if (this.sql.remove.run(this.ns, pool, m.key).changes === 1) this.count(pool, m.grp, -1);
  }

  private count(pool: string, group: string, step: 1 | -1): void {
    this.sql.groupAdd.run(this.ns, pool, group, step);
    if (step < 0) this.sql.groupDropEmpty.run(this.ns, pool, group);
    this.sql.poolAdd.run(this.ns, pool, step);
  }
}
