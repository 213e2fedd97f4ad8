import type { EmbeddedStore, Migration } from '@sesame/embedded-store';
import type { KeyStatus, StoredKey } from './key';
import type { KeyRepository } from './key.repository';

/**
 * Keys in the embedded default's durable engine (@sesame/embedded-store). A key is one row: the columns the
 * guards and the expiry test, and the whole StoredKey as JSON (its private part sealed exactly as the key
 * manager gave it: this adapter never sees key material in the clear). (use, generation) and kid are unique,
 * so "create the next key" stays a compare-and-set; each state change is one synchronous transaction.
 */
const MIGRATIONS: readonly Migration[] = [
  (db) =>
    db.exec(`
      CREATE TABLE jwks_keys (kid TEXT PRIMARY KEY, use TEXT NOT NULL, generation INTEGER NOT NULL,
        status TEXT NOT NULL, retire_after INTEGER, doc TEXT NOT NULL) STRICT;
      CREATE UNIQUE INDEX jwks_keys_generation ON jwks_keys (use, generation);
      CREATE INDEX jwks_keys_expiry ON jwks_keys (status, retire_after);
    `),
];

export class SqliteKeyRepository implements KeyRepository {
  private readonly sql;

  constructor(private readonly store: EmbeddedStore) {
    store.migrate('jwks.keys', MIGRATIONS);
    const db = store.db;
    this.sql = {
      insert: db.prepare<[string, string, number, string, number | null, string]>(
        'INSERT OR IGNORE INTO jwks_keys (kid, use, generation, status, retire_after, doc) VALUES (?, ?, ?, ?, ?, ?)',
      ),
      list: db.prepare<[], string>('SELECT doc FROM jwks_keys ORDER BY use, generation').pluck(),
      get: db
        .prepare<[string, string], string>('SELECT doc FROM jwks_keys WHERE kid = ? AND status = ?')
        .pluck(),
      update: db.prepare<[string, number | null, string, string, string]>(
        'UPDATE jwks_keys SET status = ?, retire_after = ?, doc = ? WHERE kid = ? AND status = ?',
      ),
      deleteExpired: db.prepare<[number]>(
        "DELETE FROM jwks_keys WHERE status = 'retired' AND retire_after <= ?",
      ),
    };
  }

  async insert(key: StoredKey): Promise<boolean> {
    const row = [
      key.kid,
      key.use,
      key.generation,
      key.status,
      key.retireAfter ?? null,
      JSON.stringify(key),
    ] as const;
    return this.sql.insert.run(...row).changes === 1;
  }

  async list(): Promise<StoredKey[]> {
    // Array.from: the driver's arrays are made in the realm that loaded the native module.
    return Array.from(this.sql.list.all(), (doc) => JSON.parse(doc) as StoredKey);
  }

  async activate(kid: string, activatedAt: number): Promise<boolean> {
    return this.transition(kid, 'pending', { status: 'active', activatedAt });
  }

  async retire(kid: string, retiredAt: number, retireAfter: number): Promise<boolean> {
    return this.transition(kid, 'active', { status: 'retired', retiredAt, retireAfter });
  }

  async deleteExpired(now: number): Promise<number> {
    return this.sql.deleteExpired.run(now).changes;
  }

  /** One transaction: the read and the guarded write cannot interleave with another change. */
  private transition(kid: string, from: KeyStatus, change: Partial<StoredKey>): boolean {
    return this.store.db.transaction(() => {
      const doc = this.sql.get.get(kid, from);
      if (doc === undefined) return false;
      const next: StoredKey = { ...(JSON.parse(doc) as StoredKey), ...change };
      return (
        this.sql.update.run(next.status, next.retireAfter ?? null, JSON.stringify(next), kid, from)
          .changes === 1
      );
    })();
  }
}
