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

/** One step of a component's schema: migration i brings the component from version i to i + 1. */
export type Migration = (db: Database.Database) => void;

export class EmbeddedStoreError extends Error {
  override name = 'EmbeddedStoreError';
}

const DB_FILE = 'sesame.db';
const OWNER_FILE = 'owner.json';

export class EmbeddedStore {
  private constructor(
    readonly db: Database.Database,
    readonly dir: string,
  ) {}

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
