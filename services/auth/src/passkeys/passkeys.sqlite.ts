import type { EmbeddedStore, Migration } from '@sesame/embedded-store';
import { defined, toDoc } from '../sqlite-doc';
import type { Passkey } from './model';
import { DuplicatePasskeyError, type PasskeyRepository } from './passkeys.repository';

/**
 * Passkeys in the embedded default's durable engine (@sesame/embedded-store): the record as a JSON document,
 * the credential id its key and (user, created at) indexed for a person's passkeys. Each method is one
 * synchronous transaction, in the write-ahead log before its promise resolves.
 */
export const PASSKEYS_COMPONENT = 'auth.passkeys';

export const PASSKEYS_MIGRATIONS: readonly Migration[] = [
  (db) =>
    db.exec(`
      CREATE TABLE auth_passkeys (credential_id TEXT PRIMARY KEY, user_id TEXT NOT NULL, created_at INTEGER NOT NULL,
        doc TEXT NOT NULL) WITHOUT ROWID, STRICT;
      CREATE INDEX auth_passkeys_user ON auth_passkeys (user_id, created_at);
    `),
];

/** The statements that read or change rows (a test asks the planner that each one uses an index). */
export const PASSKEY_SQL = {
  get: 'SELECT doc FROM auth_passkeys WHERE credential_id = ?',
  list: 'SELECT doc FROM auth_passkeys WHERE user_id = ? ORDER BY created_at, credential_id',
  setDoc: 'UPDATE auth_passkeys SET doc = ? WHERE credential_id = ?',
  remove: 'DELETE FROM auth_passkeys WHERE credential_id = ?',
} as const;

/** The passkey store on the embedded engine (its tables brought to this version first; the engine stays open). */
export function sqlitePasskeyStore(engine: EmbeddedStore): PasskeyRepository {
  engine.migrate(PASSKEYS_COMPONENT, PASSKEYS_MIGRATIONS);
  const db = engine.db;
  const sql = {
    get: db.prepare<[string], string>(PASSKEY_SQL.get).pluck(),
    list: db.prepare<[string], string>(PASSKEY_SQL.list).pluck(),
    insert: db.prepare<[string, string, number, string]>(
      'INSERT INTO auth_passkeys (credential_id, user_id, created_at, doc) VALUES (?, ?, ?, ?)',
    ),
    setDoc: db.prepare<[string, string]>(PASSKEY_SQL.setDoc),
    remove: db.prepare<[string]>(PASSKEY_SQL.remove),
  };
  const read = (credentialId: string): Passkey | undefined => {
    const doc = sql.get.get(credentialId);
    return doc === undefined ? undefined : (JSON.parse(doc) as Passkey);
  };
  const create = db.transaction((p: Passkey) => {
    if (sql.get.get(p.credentialId) !== undefined) throw new DuplicatePasskeyError();
    sql.insert.run(p.credentialId, p.userId, p.createdAt, toDoc(p));
  });
  const change = db.transaction((credentialId: string, patch: Partial<Passkey>) => {
    const p = read(credentialId);
    if (!p) return false;
    sql.setDoc.run(toDoc({ ...p, ...defined(patch) }), credentialId);
    return true;
  });
  return {
    async create(passkey) {
      create(passkey);
    },
    async get(credentialId) {
      return read(credentialId);
    },
    async listForUser(userId) {
      return Array.from(sql.list.all(userId), (doc) => JSON.parse(doc) as Passkey);
    },
    async recordUse(credentialId, use) {
      return change(credentialId, { counter: use.counter, backedUp: use.backedUp, lastUsedAt: use.at });
    },
    async markSuspected(credentialId) {
      return change(credentialId, { status: 'suspected' });
    },
    async remove(credentialId) {
      return sql.remove.run(credentialId).changes > 0;
    },
  };
}
