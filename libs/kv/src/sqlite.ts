// Over 300 lines on purpose: one adapter whose methods share the engine turn's queue (EmbeddedStore.joinTurn):
// plain writes join it, read-modify-writes commit it first, reads answer from it; split, each part would need it.
import type { EmbeddedStore, Migration, TurnWriter } from '@sesame/embedded-store';
import { LocalSignals } from './local-signals';
import type { Admission, KeyValueStore, PendingGroup, PendingPool, SlidingWindow } from './port';
import { PENDING_TABLES, SqlitePendingPools } from './sqlite-pending';

/**
 * The KeyValueStore in the embedded default's durable engine (one SQLite database per process, see
 * @sesame/embedded-store). Every method is one synchronous transaction, so each is atomic as a Redis command
 * or Lua script is, and a write has reached the write-ahead log before its promise resolves. Expired rows are
 * invisible at once and swept every 30 s. Signals stay in the process: only one process opens a store.
 *
 * Group commit: a plain `set` (no onlyIfAbsent: an access token, a code, a session), a `del`, a `schedule` and
 * an `unschedule` are queued and written in call order in the engine's transaction that ends the turn of the
 * event loop (EmbeddedStore.joinTurn), with the other adapters' writes of that turn; each resolves once that
 * transaction committed, so an answered write is still on disk. Every other method commits the turn first
 * (synchronously), so it sees those writes as if each had been its own transaction; a read answers from the
 * queue for a queued key and from the table otherwise, and `due` commits first only when its own schedule has
 * a queued change, so neither forces a commit of its own. One commit per token made client_credentials on the
 * engine about a tenth of bare node:http (issue 36 asks for ≥ 0.3).
 */
const MIGRATIONS: readonly Migration[] = [
  (db) =>
    db.exec(`
      CREATE TABLE kv_entries (ns TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, expires_at INTEGER NOT NULL,
        PRIMARY KEY (ns, key)) WITHOUT ROWID, STRICT;
      CREATE INDEX kv_entries_expiry ON kv_entries (expires_at);
      CREATE TABLE kv_window_hits (ns TEXT NOT NULL, key TEXT NOT NULL, at INTEGER NOT NULL, expires_at INTEGER NOT NULL) STRICT;
      CREATE INDEX kv_window_hits_key ON kv_window_hits (ns, key, at);
      CREATE INDEX kv_window_hits_expiry ON kv_window_hits (expires_at);
      CREATE TABLE kv_schedules (ns TEXT NOT NULL, key TEXT NOT NULL, expires_at INTEGER NOT NULL,
        PRIMARY KEY (ns, key)) WITHOUT ROWID, STRICT;
      CREATE TABLE kv_schedule_members (ns TEXT NOT NULL, key TEXT NOT NULL, member TEXT NOT NULL, at INTEGER NOT NULL,
        PRIMARY KEY (ns, key, member)) WITHOUT ROWID, STRICT;
      CREATE INDEX kv_schedule_members_at ON kv_schedule_members (ns, key, at, member);
    `),
  // 2: the sweep finds expired schedules by expires_at; without this index it read every schedule of every
  // namespace on each sweep (every 30 s), a full scan that grows with the store.
  (db) => db.exec('CREATE INDEX kv_schedules_expiry ON kv_schedules (expires_at)'),
  // 3: pending entries (addPending), counted per pool and group.
  (db) => db.exec(PENDING_TABLES),
];

type Row = { value: string; expires_at: number };

/** A plain set (or, with a null value, a delete) waiting for its turn's transaction. */
interface QueuedSet {
  key: string;
  value: string | null;
  expiresAt: number;
  /** Set for a change of the schedule `key` instead: `member` put at `atMs` (with `expiresAt`), or dropped. */
  schedule?: { member: string; atMs?: number };
  resolve: (stored: true) => void;
  reject: (err: unknown) => void;
}

export class SqliteKeyValueStore implements KeyValueStore {
  readonly prefersTimeOrderedKeys = true;
  private readonly signals = new LocalSignals();
  private readonly sweeper: NodeJS.Timeout;
  private readonly sql;
  private readonly pending: SqlitePendingPools;
  private queued: QueuedSet[] = [];
  /** Written in the turn's transaction, waiting for its commit. */
  private writing: QueuedSet[] = [];
  /** The newest queued set of each key, for reads. */
  private readonly queuedByKey = new Map<string, QueuedSet>();
  /** The schedules with a queued change: `due` on one of them commits the turn first. */
  private readonly queuedSchedules = new Set<string>();
  private readonly writer: TurnWriter = {
    write: () => {
      // Asked again after a rollback (TurnWriter.write): the same sets once more.
      if (!this.writing.length) {
        this.writing = this.queued;
        this.queued = [];
      }
      for (const q of this.writing) {
        if (q.schedule) this.writeSchedule(q.key, q.schedule, q.expiresAt);
        else if (q.value === null) this.sql.delete.run(this.ns, q.key);
        else this.sql.upsert.run(this.ns, q.key, q.value, q.expiresAt);
      }
    },
    committed: () => this.settle((q) => q.resolve(true)),
    failed: (err) => this.settle((q) => q.reject(err)),
  };

  constructor(
    private readonly store: EmbeddedStore,
    private readonly ns: string,
    private readonly now: () => number = Date.now,
  ) {
    store.migrate('kv', MIGRATIONS);
    const db = store.db;
    this.sql = {
      get: db.prepare<[string, string, number], Row>(
        'SELECT value, expires_at FROM kv_entries WHERE ns = ? AND key = ? AND expires_at > ?',
      ),
      upsert: db.prepare<[string, string, string, number]>(
        'INSERT INTO kv_entries (ns, key, value, expires_at) VALUES (?, ?, ?, ?) ON CONFLICT (ns, key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at',
      ),
      update: db.prepare<[string, string, string, number]>(
        'UPDATE kv_entries SET value = ? WHERE ns = ? AND key = ? AND expires_at > ?',
      ),
      delete: db.prepare<[string, string]>('DELETE FROM kv_entries WHERE ns = ? AND key = ?'),
      windowDrop: db.prepare<[string, string, number]>(
        'DELETE FROM kv_window_hits WHERE ns = ? AND key = ? AND at <= ?',
      ),
      windowHits: db
        .prepare<[string, string], number>(
          'SELECT at FROM kv_window_hits WHERE ns = ? AND key = ? ORDER BY at',
        )
        .pluck(),
      windowAdd: db.prepare<[string, string, number, number]>(
        'INSERT INTO kv_window_hits (ns, key, at, expires_at) VALUES (?, ?, ?, ?)',
      ),
      scheduleLive: db
        .prepare<[string, string, number], number>(
          'SELECT expires_at FROM kv_schedules WHERE ns = ? AND key = ? AND expires_at > ?',
        )
        .pluck(),
      scheduleTouch: db.prepare<[string, string, number]>(
        'INSERT INTO kv_schedules (ns, key, expires_at) VALUES (?, ?, ?) ON CONFLICT (ns, key) DO UPDATE SET expires_at = excluded.expires_at',
      ),
      scheduleClear: db.prepare<[string, string]>('DELETE FROM kv_schedule_members WHERE ns = ? AND key = ?'),
      scheduleDrop: db.prepare<[string, string]>('DELETE FROM kv_schedules WHERE ns = ? AND key = ?'),
      memberPut: db.prepare<[string, string, string, number]>(
        'INSERT INTO kv_schedule_members (ns, key, member, at) VALUES (?, ?, ?, ?) ON CONFLICT (ns, key, member) DO UPDATE SET at = excluded.at',
      ),
      memberDrop: db.prepare<[string, string, string]>(
        'DELETE FROM kv_schedule_members WHERE ns = ? AND key = ? AND member = ?',
      ),
      memberCount: db
        .prepare<[string, string], number>(
          'SELECT count(*) FROM kv_schedule_members WHERE ns = ? AND key = ?',
        )
        .pluck(),
      due: db
        .prepare<[string, string, number, number], string>(
          'SELECT member FROM kv_schedule_members WHERE ns = ? AND key = ? AND at <= ? ORDER BY at, member LIMIT ?',
        )
        .pluck(),
    };
    this.pending = new SqlitePendingPools(db, ns, (key) => this.sql.delete.run(this.ns, key));
    this.sweeper = setInterval(() => this.sweep(), 30_000);
    this.sweeper.unref();
  }

  /** Commits the turn's queued writes (this adapter's and the other adapters'), first thing in a method that
   * must see them. */
  private flush(): void {
    if (this.queued.length) this.store.commitTurn();
  }

  /** Settles what the turn wrote (or, when it failed before this adapter wrote, what was queued). */
  private settle(each: (q: QueuedSet) => void): void {
    const done = this.writing.length ? this.writing : this.queued;
    if (done === this.queued) this.queued = [];
    this.writing = [];
    this.queuedSchedules.clear();
    for (const q of done) {
      if (this.queuedByKey.get(q.key) === q) this.queuedByKey.delete(q.key);
      each(q);
    }
  }

  private enqueue(
    key: string,
    value: string | null,
    expiresAt: number,
    schedule?: QueuedSet['schedule'],
  ): Promise<true> {
    const stored = new Promise<true>((resolve, reject) => {
      const q = { key, value, expiresAt, schedule, resolve, reject };
      this.queued.push(q);
      if (schedule) this.queuedSchedules.add(key);
      else this.queuedByKey.set(key, q);
    });
    this.store.joinTurn(this.writer);
    return stored;
  }

  /** Removes what has expired, in every namespace (one store, one sweep is enough; each instance may run it). */
  sweep(): void {
    this.flush();
    const now = this.now();
    const db = this.store.db;
    if (!db.open) return;
    db.transaction(() => {
      db.prepare('DELETE FROM kv_entries WHERE expires_at <= ?').run(now);
      db.prepare('DELETE FROM kv_window_hits WHERE expires_at <= ?').run(now);
      const gone = db.prepare('SELECT ns, key FROM kv_schedules WHERE expires_at <= ?').all(now) as {
        ns: string;
        key: string;
      }[];
      for (const { ns, key } of gone) {
        this.sql.scheduleClear.run(ns, key);
        this.sql.scheduleDrop.run(ns, key);
      }
    })();
  }

  /** The live row (callers write the queued sets first, outside any transaction of theirs). */
  private live(key: string): Row | undefined {
    return this.sql.get.get(this.ns, key, this.now());
  }

  /** A read: the newest queued set of the key if there is one (no commit forced by reading), else the row. */
  private read(key: string): Row | undefined {
    const q = this.queuedByKey.get(key);
    if (q)
      return q.value !== null && q.expiresAt > this.now()
        ? { value: q.value, expires_at: q.expiresAt }
        : undefined;
    return this.live(key);
  }

  async get(key: string) {
    return this.read(key)?.value ?? null;
  }

  async getMany(keys: string[]) {
    return keys.map((key) => this.read(key)?.value ?? null);
  }

  async set(key: string, value: string, opts: { ttlMs: number; onlyIfAbsent?: boolean }) {
    if (!opts.onlyIfAbsent) return this.enqueue(key, value, this.now() + opts.ttlMs);
    this.flush();
    return this.store.db.transaction(() => {
      const now = this.now();
      if (opts.onlyIfAbsent && this.live(key)) return false;
      this.sql.upsert.run(this.ns, key, value, now + opts.ttlMs);
      return true;
    })();
  }

  async replace(key: string, value: string) {
    this.flush();
    return this.sql.update.run(value, this.ns, key, this.now()).changes === 1;
  }

  async take(key: string) {
    this.flush();
    return this.store.db.transaction(() => {
      const row = this.live(key);
      this.sql.delete.run(this.ns, key);
      return row?.value ?? null;
    })();
  }

  async del(key: string) {
    await this.enqueue(key, null, 0);
  }

  private count(key: string, step: 1 | -1, ttlMs: number): number {
    this.flush();
    return this.store.db.transaction(() => {
      const row = this.live(key);
      if (!row) {
        if (step < 0) return 0;
        this.sql.upsert.run(this.ns, key, '1', this.now() + ttlMs);
        return 1;
      }
      const next = Number(row.value) + step;
      if (!Number.isInteger(next)) throw new Error('value is not an integer');
      this.sql.update.run(String(next), this.ns, key, this.now());
      return next;
    })();
  }

  async incr(key: string, ttlMs: number) {
    return this.count(key, 1, ttlMs);
  }

  async decr(key: string) {
    return this.count(key, -1, 0);
  }

  async admit(windows: readonly SlidingWindow[], nowMs: number): Promise<Admission> {
    this.flush();
    return this.store.db.transaction((): Admission => {
      const live = windows.map((w) => {
        this.sql.windowDrop.run(this.ns, w.key, nowMs - w.windowMs);
        return this.sql.windowHits.all(this.ns, w.key);
      });
      const blocked = windows.findIndex((w, i) => live[i]!.length >= w.limit);
      if (blocked >= 0) {
        const w = windows[blocked]!;
        const oldest = live[blocked]![live[blocked]!.length - w.limit] ?? nowMs;
        return { admitted: false, blocked, retryAfterMs: Math.max(1, oldest + w.windowMs - nowMs) };
      }
      for (const w of windows) this.sql.windowAdd.run(this.ns, w.key, nowMs, nowMs + w.windowMs);
      return { admitted: true };
    })();
  }

  async admissionWaitMs(windows: readonly SlidingWindow[], nowMs: number): Promise<number> {
    this.flush();
    let wait = 0;
    for (const w of windows) {
      const live = this.sql.windowHits.all(this.ns, w.key).filter((t) => t > nowMs - w.windowMs);
      if (live.length >= w.limit) wait = Math.max(wait, live[live.length - w.limit]! + w.windowMs - nowMs);
    }
    return wait;
  }

  /** Whether the schedule is live; an expired one is emptied first. */
  private liveSchedule(key: string): boolean {
    if (this.sql.scheduleLive.get(this.ns, key, this.now()) !== undefined) return true;
    this.sql.scheduleClear.run(this.ns, key);
    this.sql.scheduleDrop.run(this.ns, key);
    return false;
  }

  /**
   * Schedule changes are queued with the plain sets and deletes, in call order, and written in the turn's
   * transaction (a sign-in's session index: one commit with the session, not two more of its own).
   */
  async schedule(key: string, member: string, atMs: number, ttlMs: number) {
    await this.enqueue(key, null, this.now() + ttlMs, { member, atMs });
  }

  async unschedule(key: string, member: string) {
    await this.enqueue(key, null, 0, { member });
  }

  /** A queued schedule change, in the turn's transaction: put (with the schedule's new expiry) or drop. */
  private writeSchedule(
    key: string,
    { member, atMs }: NonNullable<QueuedSet['schedule']>,
    expiresAt: number,
  ) {
    const live = this.liveSchedule(key);
    if (atMs !== undefined) {
      this.sql.memberPut.run(this.ns, key, member, atMs);
      this.sql.scheduleTouch.run(this.ns, key, expiresAt);
    } else if (live) {
      this.sql.memberDrop.run(this.ns, key, member);
      if (this.sql.memberCount.get(this.ns, key) === 0) this.sql.scheduleDrop.run(this.ns, key);
    }
  }

  /**
   * A read: it commits the turn only when this schedule has a queued change. An expired schedule reads as
   * empty; its rows go with its next change or the sweep.
   */
  async due(key: string, untilMs: number, limit: number) {
    if (this.queuedSchedules.has(key)) this.store.commitTurn();
    if (this.sql.scheduleLive.get(this.ns, key, this.now()) === undefined) return [];
    // Copied into this realm's array: the driver's arrays are made where the native module was loaded.
    return Array.from(this.sql.due.all(this.ns, key, untilMs, limit));
  }

  async addPending(key: string, value: string, ttlMs: number, pool: PendingPool) {
    this.flush();
    return this.store.db.transaction(() => {
      const now = this.now();
      const evicted = this.pending.add(key, now + ttlMs, pool, now);
      this.sql.upsert.run(this.ns, key, value, now + ttlMs);
      return evicted;
    })();
  }

  async confirmPending(key: string, value: string, ttlMs: number, pool: PendingGroup) {
    this.flush();
    return this.store.db.transaction(() => {
      const now = this.now();
      if (!this.pending.confirm(key, pool, now) || !this.live(key)) return false;
      this.sql.upsert.run(this.ns, key, value, now + ttlMs);
      return true;
    })();
  }

  async ttlMs(key: string) {
    const now = this.now();
    const row = this.read(key);
    return row ? row.expires_at - now : null;
  }

  async signal(channel: string) {
    this.signals.signal(channel);
  }

  async listen(channel: string, listener: () => void) {
    return this.signals.listen(channel, listener);
  }

  async ping() {
    this.store.db.prepare('SELECT 1').get();
  }

  /** Writes what is queued and stops this adapter's sweeper; the engine is closed by whoever opened it (it serves other adapters). */
  async close() {
    clearInterval(this.sweeper);
    this.flush();
  }
}
