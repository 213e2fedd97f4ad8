import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';

/**
 * The embedded default's one durable engine: a SQLite database (better-sqlite3) in a data directory, shared by
 * every adapter of the process. This module is the only place that opens it, so the lock, the durability
 * settings and the schema versions are decided once (ARCHITECTURE §11).
 *
 * - Lock: the connection takes SQLite's own EXCLUSIVE lock at open and keeps it while the process lives (the
 *   operating system releases it when the process dies, also on kill -9), so a second process on the same
 *   directory is refused before it reads or writes anything. No lock file of our own to go stale.
 * - Durability: write-ahead log; a transaction that returned is in the log on disk before the caller is
 *   answered. `synchronous: 'normal'` survives any crash of the process (the log is in the operating system's
 *   hands); `'full'` also survives a power loss, at one fsync per transaction.
 * - Schema versions: each component (an adapter's tables) keeps its own version in `schema_versions` and
 *   brings its tables forward with its ordered migrations; a store written by a newer Sesame is refused.
 */
export interface EmbeddedStoreOptions {
  /** The data directory (created if missing); the database is `sesame.db` inside it. */
  dir: string;
  synchronous?: 'normal' | 'full';
}

/**
 * A writer that takes part in the engine's group commit (`joinTurn`): the KV's queued sets and deletes, the
 * event outbox, a consumer's batch. Every writer that joined during one turn of the event loop writes inside
 * one transaction. When a writer throws, the transaction is rolled back and written again with each writer in
 * a savepoint of its own, so one writer's error undoes only its own writes.
 */
export interface TurnWriter {
  /**
   * Writes what the writer has queued (inside the turn's transaction). It may be called a second time in the
   * same turn, after a rollback, and must then write the same again: keep what it took from its queue until
   * `committed` or `failed`.
   */
  write(): void;
  /** The transaction committed with this writer's writes: answer its callers. */
  committed(): void;
  /** Its writes were undone (its own error, or the commit failed): refuse its callers. */
  failed(err: unknown): void;
}

/** One step of a component's schema: migration i brings the component from version i to i + 1. */
export type Migration = (db: Database.Database) => void;

export class EmbeddedStoreError extends Error {
  override name = 'EmbeddedStoreError';
}

/**
 * The log is copied into the database (a checkpoint, with an fsync of each file) once it holds this many pages:
 * about 40 MiB, against SQLite's default of 1,000. The hot pages (the outbox's, the right edges of the time
 * indexes, the KV's) are written to the log again at nearly every commit, and a checkpoint copies each page
 * once however often it was logged, so fewer, larger checkpoints copy far less: a COMMIT's CPU, checkpoints
 * included, went from about 135 to 75 µs on the sign-in bench (docs/performance.md, issue 42). The cost is a
 * larger log file (the limit below) and a longer replay of it at the first open after a crash.
 */
export const WAL_CHECKPOINT_PAGES = 10_000;
/** The log file is cut back to this size when a checkpoint empties it (it is reused from its start). */
export const WAL_SIZE_LIMIT_BYTES = 64 * 1024 * 1024;

const DB_FILE = 'sesame.db';
const OWNER_FILE = 'owner.json';

export class EmbeddedStore {
  private readonly turn = new Set<TurnWriter>();
  private turnScheduled: NodeJS.Immediate | undefined;
  private readonly writeAll: (writers: TurnWriter[]) => void;
  private readonly writeApart: (writers: TurnWriter[], failures: Map<TurnWriter, unknown>) => void;
  private readonly savepoint: (writer: TurnWriter) => void;

  private constructor(
    readonly db: Database.Database,
    readonly dir: string,
  ) {
    this.writeAll = db.transaction((writers: TurnWriter[]) => {
      for (const writer of writers) writer.write();
    });
    this.savepoint = db.transaction((writer: TurnWriter) => writer.write());
    this.writeApart = db.transaction((writers: TurnWriter[], failures: Map<TurnWriter, unknown>) => {
      for (const writer of writers) {
        try {
          this.savepoint(writer);
        } catch (err) {
          failures.set(writer, err);
        }
      }
    });
  }

  /**
   * Group commit for the whole engine: `writer` writes in the transaction that ends this turn of the event loop
   * (setImmediate), with every other writer that joined in the same turn. Each commit costs a BEGIN, a COMMIT
   * and the log's page writes whatever it holds, so the KV's sets, the outbox's events and the activity log's
   * rows of one turn cost one commit instead of one each. Joining twice in a turn is joining once.
   */
  joinTurn(writer: TurnWriter): void {
    this.turn.add(writer);
    this.turnScheduled ??= setImmediate(() => this.commitTurn());
  }

  /**
   * `writer` writes with the next turn that another writer starts (or the next `commitTurn`), without starting
   * one: for writes that need no commit of their own, such as the outbox's deletions of acknowledged events (a
   * crash before they are written only delivers those events again, and consumers de-duplicate). A commit costs
   * the same whether it holds them or not, so riding along saves one per acknowledgement. The caller makes
   * sure a turn comes eventually (its own `joinTurn` after a while) if nothing else writes.
   */
  rideNextTurn(writer: TurnWriter): void {
    this.turn.add(writer);
  }

  /**
   * Commits the turn's writes now: before a write that must see them (a KV read-modify-write), and on close.
   * Then each writer is told: committed, or failed with its own error (or the commit's, for all).
   */
  commitTurn(): void {
    if (this.turnScheduled) clearImmediate(this.turnScheduled);
    this.turnScheduled = undefined;
    if (this.turn.size === 0) return;
    const writers = [...this.turn];
    this.turn.clear();
    const failures = new Map<TurnWriter, unknown>();
    try {
      if (!this.db.open) throw new EmbeddedStoreError('the embedded store is closed');
      try {
        // No savepoints while nothing fails: each one cost a statement to open and close it, and a copy of every
        // page its writer changed (SQLite's statement journal), on every commit.
        this.writeAll(writers);
      } catch {
        // Rolled back whole: once more with a savepoint per writer, which undoes only the failing one's writes.
        this.writeApart(writers, failures);
      }
    } catch (err) {
      for (const writer of writers) writer.failed(err);
      return;
    }
    for (const writer of writers) {
      if (failures.has(writer)) writer.failed(failures.get(writer));
      else writer.committed();
    }
  }

  /** `work` in this turn's transaction (its own savepoint); resolves with its result once committed. */
  inTurn<T>(work: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      let result: T;
      this.joinTurn({
        write: () => {
          result = work();
        },
        committed: () => resolve(result),
        failed: reject,
      });
    });
  }

  static open(opts: EmbeddedStoreOptions): EmbeddedStore {
    mkdirSync(opts.dir, { recursive: true });
    const file = join(opts.dir, DB_FILE);
    let db: Database.Database;
    try {
      db = new Database(file, { timeout: 0 });
    } catch (error) {
      throw new EmbeddedStoreError(`cannot open the data directory ${opts.dir}: ${(error as Error).message}`);
    }
    try {
      // EXCLUSIVE before WAL: the log's index then lives in this process's memory, and the first write below
      // takes the lock for good.
      db.pragma('locking_mode = EXCLUSIVE');
      db.pragma('journal_mode = WAL');
      db.pragma(`synchronous = ${opts.synchronous === 'full' ? 'FULL' : 'NORMAL'}`);
      db.pragma(`wal_autocheckpoint = ${WAL_CHECKPOINT_PAGES}`);
      db.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
      db.pragma('foreign_keys = ON');
      // An exclusive transaction takes the write lock now, and EXCLUSIVE mode keeps it after the commit.
      db.exec(
        'BEGIN EXCLUSIVE; CREATE TABLE IF NOT EXISTS schema_versions (component TEXT PRIMARY KEY, version INTEGER NOT NULL) STRICT; COMMIT',
      );
    } catch (error) {
      db.close();
      if ((error as { code?: string }).code?.startsWith('SQLITE_BUSY')) {
        throw new EmbeddedStoreError(
          `the data directory ${opts.dir} is in use by another Sesame process${describeOwner(opts.dir)}; stop it first, or give this one another directory (--data-dir or SESAME_DATA_DIR)`,
        );
      }
      throw new EmbeddedStoreError(`cannot open the store in ${opts.dir}: ${(error as Error).message}`);
    }
    writeFileSync(join(opts.dir, OWNER_FILE), `${JSON.stringify({ pid: process.pid, since: Date.now() })}\n`);
    return new EmbeddedStore(db, opts.dir);
  }

  /** The component's schema version in this store (0 when it has none yet). */
  versionOf(component: string): number {
    const row = this.db
      .prepare<[string], { version: number }>('SELECT version FROM schema_versions WHERE component = ?')
      .get(component);
    return row?.version ?? 0;
  }

  /**
   * Brings `component` to the last version `migrations` know, each step in its own transaction (a crash
   * between two steps leaves a consistent earlier version). Refuses a store whose version is newer.
   */
  migrate(component: string, migrations: readonly Migration[]): void {
    const known = migrations.length;
    const stored = this.versionOf(component);
    if (stored > known) {
      throw new EmbeddedStoreError(
        `the store in ${this.dir} was written by a newer Sesame (${component} schema version ${stored}; this one knows up to ${known}); upgrade Sesame, or restore a backup made by this version`,
      );
    }
    const record = this.db.prepare(
      'INSERT INTO schema_versions (component, version) VALUES (?, ?) ON CONFLICT (component) DO UPDATE SET version = excluded.version',
    );
    for (let version = stored; version < known; version++) {
      this.db.transaction(() => {
        migrations[version]!(this.db);
        record.run(component, version + 1);
      })();
    }
  }

  /** A consistent copy of the whole store while it runs (SQLite's online backup), written to `file`. */
  async backup(file: string): Promise<void> {
    await this.db.backup(file);
  }

  close(): void {
    if (this.db.open) this.commitTurn();
    if (this.db.open) this.db.close();
  }
}

function describeOwner(dir: string): string {
  try {
    const owner = JSON.parse(readFileSync(join(dir, OWNER_FILE), 'utf8')) as { pid?: number };
    return typeof owner.pid === 'number' ? ` (pid ${owner.pid})` : '';
  } catch {
    return '';
  }
}
