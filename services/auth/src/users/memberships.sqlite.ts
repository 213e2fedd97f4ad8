import type { EmbeddedStore } from '@sesame/embedded-store';
import { toDoc } from '../sqlite-doc';
import type { AppMembership } from './model';
import type { MembershipRepository } from './users.repository';

/**
 * Every statement of the memberships adapter, by name (tables in users.sqlite.ts's migrations). Exported so a
 * test can ask SQLite's planner that each one is served by an index (users.sqlite.test.ts).
 */
export const MEMBERSHIP_SQL = {
  get: 'SELECT doc FROM auth_memberships WHERE tenant_id = ? AND app_id = ? AND user_id = ?',
  upsert:
    'INSERT INTO auth_memberships (tenant_id, app_id, user_id, alias, first_login_at, doc) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (tenant_id, app_id, user_id) DO UPDATE SET alias = excluded.alias, first_login_at = excluded.first_login_at, doc = excluded.doc',
  listForUser:
    'SELECT doc FROM auth_memberships WHERE tenant_id = ? AND user_id = ? ORDER BY first_login_at, app_id',
  byAlias:
    'SELECT doc FROM auth_memberships WHERE tenant_id = ? AND alias = ? ORDER BY first_login_at, app_id, user_id',
  byAliasInApp:
    'SELECT doc FROM auth_memberships WHERE tenant_id = ? AND alias = ? AND app_id = ? ORDER BY first_login_at',
  removeAll: 'DELETE FROM auth_memberships WHERE tenant_id = ? AND user_id = ?',
  removeApp: 'DELETE FROM auth_memberships WHERE tenant_id = ? AND app_id = ? AND user_id = ?',
  releaseAll: 'DELETE FROM auth_aliases WHERE tenant_id = ? AND user_id = ?',
  releaseApp: 'DELETE FROM auth_aliases WHERE tenant_id = ? AND user_id = ? AND app_id = ?',
  claim:
    'INSERT INTO auth_aliases (tenant_id, app_id, alias, user_id) VALUES (?, ?, ?, ?) ON CONFLICT (tenant_id, app_id, alias) DO NOTHING',
  owner: 'SELECT user_id FROM auth_aliases WHERE tenant_id = ? AND app_id = ? AND alias = ?',
  release: 'DELETE FROM auth_aliases WHERE tenant_id = ? AND app_id = ? AND alias = ? AND user_id = ?',
} as const;

const parse = (doc: string) => JSON.parse(doc) as AppMembership;
const byFirstLogin = (a: AppMembership, b: AppMembership) => a.firstLoginAt - b.firstLoginAt;

/** Memberships and claimed aliases (one row per claim: the primary key keeps an alias unique per app). */
export function sqliteMemberships(engine: EmbeddedStore): MembershipRepository {
  const db = engine.db;
  const q = MEMBERSHIP_SQL;
  const sql = {
    get: db.prepare<[string, string, string], string>(q.get).pluck(),
    upsert: db.prepare<[string, string, string, string | null, number, string]>(q.upsert),
    listForUser: db.prepare<[string, string], string>(q.listForUser).pluck(),
    byAlias: db.prepare<[string, string], string>(q.byAlias).pluck(),
    byAliasInApp: db.prepare<[string, string, string], string>(q.byAliasInApp).pluck(),
    removeAll: db.prepare<[string, string]>(q.removeAll),
    removeApp: db.prepare<[string, string, string]>(q.removeApp),
    releaseAll: db.prepare<[string, string]>(q.releaseAll),
    releaseApp: db.prepare<[string, string, string]>(q.releaseApp),
    claim: db.prepare<[string, string, string, string]>(q.claim),
    owner: db.prepare<[string, string, string], string>(q.owner).pluck(),
    release: db.prepare<[string, string, string, string]>(q.release),
  };
  const read = (tenantId: string, appId: string, userId: string) => {
    const doc = sql.get.get(tenantId, appId, userId);
    return doc === undefined ? undefined : parse(doc);
  };
  const write = (m: AppMembership) =>
    sql.upsert.run(m.tenantId, m.appId, m.userId, m.alias ?? null, m.firstLoginAt, toDoc(m));
  const listForUser = (tenantId: string, userId: string, appId?: string): AppMembership[] => {
    if (appId) {
      const one = read(tenantId, appId, userId);
      return one ? [one] : [];
    }
    return Array.from(sql.listForUser.all(tenantId, userId), parse);
  };
  const findByAlias = (tenantId: string, alias: string, appId?: string): AppMembership[] =>
    Array.from(
      appId ? sql.byAliasInApp.all(tenantId, alias, appId) : sql.byAlias.all(tenantId, alias),
      parse,
    );
  // Read, change and write in one transaction: nothing else writes in between (one connection, synchronous).
  const update = db.transaction(
    (tenantId: string, appId: string, userId: string, change: (m?: AppMembership) => AppMembership) => {
      const next = change(read(tenantId, appId, userId));
      if (next.tenantId !== tenantId || next.appId !== appId || next.userId !== userId)
        throw new Error('a membership update changed its keys');
      write(next);
      return read(tenantId, appId, userId)!;
    },
  );
  const findByUsersOrAlias = db.transaction(
    (tenantId: string, userIds: string[], alias: string, aliasAppId?: string) => {
      const found = new Map<string, AppMembership>();
      const add = (m: AppMembership) => found.set(`${m.appId}\u0000${m.userId}`, m);
      for (const userId of new Set(userIds)) listForUser(tenantId, userId).forEach(add);
      findByAlias(tenantId, alias, aliasAppId).forEach(add);
      return [...found.values()].sort(byFirstLogin);
    },
  );
  const remove = db.transaction((tenantId: string, userId: string, appId?: string) => {
    if (appId) {
      sql.releaseApp.run(tenantId, userId, appId);
      return sql.removeApp.run(tenantId, appId, userId).changes;
    }
    sql.releaseAll.run(tenantId, userId);
    return sql.removeAll.run(tenantId, userId).changes;
  });
  const claimAlias = db.transaction((tenantId: string, appId: string, alias: string, userId: string) => {
    sql.claim.run(tenantId, appId, alias, userId);
    return sql.owner.get(tenantId, appId, alias) === userId;
  });
  return {
    async save(m) {
      await engine.inTurn(() => write(m));
    },
    async get(tenantId, appId, userId) {
      return read(tenantId, appId, userId);
    },
    async update(tenantId, appId, userId, change) {
      return engine.inTurn(() => update(tenantId, appId, userId, change));
    },
    async listForUser(tenantId, userId, appId) {
      return listForUser(tenantId, userId, appId);
    },
    async findByAlias(tenantId, alias, appId) {
      return findByAlias(tenantId, alias, appId);
    },
    async findByUsersOrAlias(tenantId, userIds, alias, aliasAppId) {
      return findByUsersOrAlias(tenantId, userIds, alias, aliasAppId);
    },
    async remove(tenantId, userId, appId) {
      return engine.inTurn(() => remove(tenantId, userId, appId));
    },
    async claimAlias(tenantId, appId, alias, userId) {
      return engine.inTurn(() => claimAlias(tenantId, appId, alias, userId));
    },
    async releaseAlias(tenantId, appId, alias, userId) {
      await engine.inTurn(() => sql.release.run(tenantId, appId, alias, userId));
    },
  };
}
