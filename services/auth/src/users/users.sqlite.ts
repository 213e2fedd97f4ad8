import type { EmbeddedStore, Migration } from '@sesame/embedded-store';
import { defined, toDoc } from '../sqlite-doc';
import { sqliteMemberships } from './memberships.sqlite';
import { type DeviceAccess, type User, type UserDevice, withDisabled } from './model';
import {
  type DeviceAccessRepository,
  DuplicateUserError,
  type UserDeviceRepository,
  type UserRepository,
  type UserStore,
  prefixEnd,
} from './users.repository';

/**
 * People, their devices, memberships and blocked devices in the embedded default's durable engine
 * (@sesame/embedded-store). Each method is one synchronous SQLite transaction: atomic, and in the write-ahead log
 * before its promise resolves. Nothing is read at open: every query the ports offer has its index (below), so a
 * look-up costs the same with 100 people as with 100,000.
 *
 * Rows keep the port's record as a JSON document (`doc`); every field a query filters or sorts on is a column of
 * its own. `email_norm` (the address in lower case) serves look-ups by the start of an address
 * (`email_norm >= prefix AND email_norm < prefix + 1`, binary collation) and `created_at` the newest-first list
 * (issue 38); `findByEmail` matches the address exactly, as the other adapters do.
 */
export const USERS_COMPONENT = 'auth.users';

export const USERS_MIGRATIONS: readonly Migration[] = [
  (db) =>
    db.exec(`
      CREATE TABLE auth_users (user_id TEXT PRIMARY KEY, email TEXT, email_norm TEXT, created_at INTEGER NOT NULL,
        doc TEXT NOT NULL) STRICT;
      CREATE UNIQUE INDEX auth_users_email ON auth_users (email) WHERE email IS NOT NULL;
      CREATE INDEX auth_users_email_norm ON auth_users (email_norm) WHERE email_norm IS NOT NULL;
      CREATE INDEX auth_users_created ON auth_users (created_at);
      CREATE TABLE auth_user_devices (user_id TEXT NOT NULL, device_id TEXT NOT NULL, registered_at INTEGER NOT NULL,
        doc TEXT NOT NULL, PRIMARY KEY (user_id, device_id)) WITHOUT ROWID, STRICT;
      CREATE INDEX auth_user_devices_registered ON auth_user_devices (user_id, registered_at);
      CREATE TABLE auth_memberships (tenant_id TEXT NOT NULL, app_id TEXT NOT NULL, user_id TEXT NOT NULL, alias TEXT,
        first_login_at INTEGER NOT NULL, doc TEXT NOT NULL, PRIMARY KEY (tenant_id, app_id, user_id)) WITHOUT ROWID, STRICT;
      CREATE INDEX auth_memberships_user ON auth_memberships (tenant_id, user_id, first_login_at);
      CREATE INDEX auth_memberships_alias ON auth_memberships (tenant_id, alias, first_login_at) WHERE alias IS NOT NULL;
      CREATE INDEX auth_memberships_first_login ON auth_memberships (tenant_id, first_login_at);
      CREATE TABLE auth_aliases (tenant_id TEXT NOT NULL, app_id TEXT NOT NULL, alias TEXT NOT NULL, user_id TEXT NOT NULL,
        PRIMARY KEY (tenant_id, app_id, alias)) WITHOUT ROWID, STRICT;
      CREATE INDEX auth_aliases_user ON auth_aliases (tenant_id, user_id, app_id);
      CREATE TABLE auth_device_access (tenant_id TEXT NOT NULL, user_id TEXT NOT NULL, device_id TEXT NOT NULL,
        allow_access INTEGER NOT NULL, changed_at INTEGER NOT NULL, PRIMARY KEY (tenant_id, user_id, device_id))
        WITHOUT ROWID, STRICT;
    `),
  // Newest first with the user id breaking ties (support's keyset list of people, issue 38).
  (db) => db.exec('CREATE INDEX auth_users_created_user ON auth_users (created_at, user_id);'),
];

/** An address as look-ups by its start compare it. */
export const normaliseEmail = (email: string): string => email.toLowerCase();

/** The statements that read or change rows of users, devices and device access (a test asks the planner). */
export const USER_SQL = {
  get: 'SELECT doc FROM auth_users WHERE user_id = ?',
  byEmail: 'SELECT doc FROM auth_users WHERE email = ?',
  setDoc: 'UPDATE auth_users SET doc = ? WHERE user_id = ?',
  newestBefore:
    'SELECT doc FROM auth_users WHERE (created_at, user_id) < (?, ?) ORDER BY created_at DESC, user_id DESC LIMIT ?',
  prefix: 'SELECT doc FROM auth_users WHERE email_norm >= ? AND email_norm < ? ORDER BY email_norm LIMIT ?',
  prefixAfter:
    'SELECT doc FROM auth_users WHERE email_norm > ? AND email_norm < ? ORDER BY email_norm LIMIT ?',
  deviceGet: 'SELECT doc FROM auth_user_devices WHERE user_id = ? AND device_id = ?',
  deviceList: 'SELECT doc FROM auth_user_devices WHERE user_id = ? ORDER BY registered_at, device_id',
  accessGet:
    'SELECT device_id, allow_access, changed_at FROM auth_device_access WHERE tenant_id = ? AND user_id = ? AND device_id = ?',
  accessList:
    'SELECT device_id, allow_access, changed_at FROM auth_device_access WHERE tenant_id = ? AND user_id = ? ORDER BY device_id',
} as const;

function sqliteUsers(engine: EmbeddedStore): UserRepository {
  const db = engine.db;
  const sql = {
    get: db.prepare<[string], string>(USER_SQL.get).pluck(),
    byEmail: db.prepare<[string], string>(USER_SQL.byEmail).pluck(),
    insert: db.prepare<[string, string | null, string | null, number, string]>(
      'INSERT INTO auth_users (user_id, email, email_norm, created_at, doc) VALUES (?, ?, ?, ?, ?)',
    ),
    setDoc: db.prepare<[string, string]>(USER_SQL.setDoc),
    newestBefore: db.prepare<[number, string, number], string>(USER_SQL.newestBefore).pluck(),
    prefix: db.prepare<[string, string, number], string>(USER_SQL.prefix).pluck(),
    prefixAfter: db.prepare<[string, string, number], string>(USER_SQL.prefixAfter).pluck(),
  };
  const parseAll = (docs: Iterable<string>) => Array.from(docs, (doc) => JSON.parse(doc) as User);
  const read = (userId: string): User | undefined => {
    const doc = sql.get.get(userId);
    return doc === undefined ? undefined : (JSON.parse(doc) as User);
  };
  const create = db.transaction((user: User) => {
    if (sql.get.get(user.userId) !== undefined) throw new DuplicateUserError('userId');
    if (user.email !== undefined && sql.byEmail.get(user.email) !== undefined)
      throw new DuplicateUserError('email');
    const email = user.email ?? null;
    sql.insert.run(user.userId, email, email && normaliseEmail(email), user.createdAt, toDoc(user));
  });
  const getMany = db.transaction((userIds: string[]) =>
    [...new Set(userIds)].flatMap((userId) => {
      const user = read(userId);
      return user ? [user] : [];
    }),
  );
  const update = db.transaction((userId: string, patch: Partial<User>) => {
    const user = read(userId);
    if (!user) return false;
    sql.setDoc.run(toDoc({ ...user, ...defined(patch) }), userId);
    return true;
  });
  const setDisabled = db.transaction((userId: string, tenantId: string, at: number | undefined) => {
    const user = read(userId);
    if (!user) return false;
    sql.setDoc.run(toDoc(withDisabled(user, tenantId, at)), userId);
    return true;
  });
  const removePhone = db.transaction((userId: string) => {
    const user = read(userId);
    if (!user) return false;
    const { phoneNumber: _n, phoneVerifiedAt: _v, ...rest } = user;
    sql.setDoc.run(toDoc(rest), userId);
    return true;
  });
  return {
    async setDisabled(userId, tenantId, at) {
      return engine.inTurn(() => setDisabled(userId, tenantId, at));
    },
    async create(user) {
      await engine.inTurn(() => create(user));
    },
    async get(userId) {
      return read(userId);
    },
    async findByEmail(email) {
      const doc = sql.byEmail.get(email);
      return doc === undefined ? undefined : (JSON.parse(doc) as User);
    },
    async getMany(userIds) {
      return userIds.length ? getMany(userIds) : [];
    },
    async update(userId, patch) {
      return engine.inTurn(() => update(userId, patch));
    },
    async listNewest(limit, before) {
      // From the top: before every person (a range, so the planner searches the index rather than scans it).
      const from = before ?? { createdAt: Number.MAX_SAFE_INTEGER, userId: '' };
      return parseAll(sql.newestBefore.all(from.createdAt, from.userId, limit));
    },
    async findByEmailPrefix(prefix, limit, after) {
      const start = normaliseEmail(prefix);
      if (!start) return [];
      const end = prefixEnd(start);
      return parseAll(
        after === undefined ? sql.prefix.all(start, end, limit) : sql.prefixAfter.all(after, end, limit),
      );
    },
    async removePhone(userId) {
      return engine.inTurn(() => removePhone(userId));
    },
  };
}

function sqliteUserDevices(engine: EmbeddedStore): UserDeviceRepository {
  const db = engine.db;
  const sql = {
    upsert: db.prepare<[string, string, number, string]>(
      'INSERT INTO auth_user_devices (user_id, device_id, registered_at, doc) VALUES (?, ?, ?, ?) ON CONFLICT (user_id, device_id) DO UPDATE SET registered_at = excluded.registered_at, doc = excluded.doc',
    ),
    get: db.prepare<[string, string], string>(USER_SQL.deviceGet).pluck(),
    list: db.prepare<[string], string>(USER_SQL.deviceList).pluck(),
  };
  return {
    async save(device) {
      await engine.inTurn(() =>
        sql.upsert.run(device.userId, device.deviceId, device.registeredAt, toDoc(device)),
      );
    },
    async get(userId, deviceId) {
      const doc = sql.get.get(userId, deviceId);
      return doc === undefined ? undefined : (JSON.parse(doc) as UserDevice);
    },
    async listForUser(userId) {
      return Array.from(sql.list.all(userId), (doc) => JSON.parse(doc) as UserDevice);
    },
  };
}

type AccessRow = { device_id: string; allow_access: number; changed_at: number };

function sqliteDeviceAccess(db: EmbeddedStore['db']): DeviceAccessRepository {
  const sql = {
    upsert: db.prepare<[string, string, string, number, number]>(
      'INSERT INTO auth_device_access (tenant_id, user_id, device_id, allow_access, changed_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (tenant_id, user_id, device_id) DO UPDATE SET allow_access = excluded.allow_access, changed_at = excluded.changed_at',
    ),
    get: db.prepare<[string, string, string], AccessRow>(USER_SQL.accessGet),
    list: db.prepare<[string, string], AccessRow>(USER_SQL.accessList),
  };
  const entry = (tenantId: string, userId: string, row: AccessRow): DeviceAccess => ({
    tenantId,
    userId,
    deviceId: row.device_id,
    allowAccess: row.allow_access === 1,
    changedAt: row.changed_at,
  });
  return {
    async set(e) {
      sql.upsert.run(e.tenantId, e.userId, e.deviceId, e.allowAccess ? 1 : 0, e.changedAt);
    },
    async get(tenantId, userId, deviceId) {
      const row = sql.get.get(tenantId, userId, deviceId);
      return row && entry(tenantId, userId, row);
    },
    async listForUser(tenantId, userId) {
      return Array.from(sql.list.all(tenantId, userId), (row) => entry(tenantId, userId, row));
    },
  };
}

/**
 * The user store on the embedded engine. Brings its tables to this version first (a store written by a newer
 * Sesame is refused); the engine stays open when the store is dropped: the launcher owns it.
 */
export function sqliteUserStore(engine: EmbeddedStore): UserStore {
  engine.migrate(USERS_COMPONENT, USERS_MIGRATIONS);
  return {
    users: sqliteUsers(engine),
    devices: sqliteUserDevices(engine),
    memberships: sqliteMemberships(engine),
    deviceAccess: sqliteDeviceAccess(engine.db),
  };
}
