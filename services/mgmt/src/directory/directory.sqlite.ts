import type { EmbeddedStore, Migration } from '@sesame/embedded-store';
import { sqliteBranding } from '../branding/sqlite';
import {
  type AdminRepository,
  type ApplicationRepository,
  type CredentialsRepository,
  type DirectoryRepositories,
  DuplicateKeyError,
  type TenantRepository,
} from './directory.repository';
import type { Admin, ApiCredentials, Application, Tenant } from './model';
import { SqliteDocs } from './sqlite-docs';

/**
 * The directory in the embedded default's durable engine (component `mgmt.directory`): tenants, applications
 * with their clients (the secret only as its hash and sealed copy, as the port is given them), API credentials
 * (hashed secrets) and the admins seen. Each method is one synchronous transaction.
 */
const MIGRATIONS: readonly Migration[] = [
  (db) =>
    db.exec(`
      CREATE TABLE mgmt_tenants (tenant_id TEXT PRIMARY KEY, created_at INTEGER NOT NULL, doc TEXT NOT NULL) STRICT;
      CREATE INDEX mgmt_tenants_created ON mgmt_tenants (created_at);
      CREATE TABLE mgmt_applications (app_id TEXT PRIMARY KEY, tenant_id TEXT NOT NULL, client_id TEXT NOT NULL UNIQUE,
        client_type TEXT NOT NULL, created_at INTEGER NOT NULL, doc TEXT NOT NULL) STRICT;
      CREATE INDEX mgmt_applications_tenant ON mgmt_applications (tenant_id, created_at);
      CREATE TABLE mgmt_api_credentials (credentials_id TEXT PRIMARY KEY, tenant_id TEXT NOT NULL,
        revoked_at INTEGER, created_at INTEGER NOT NULL, doc TEXT NOT NULL) STRICT;
      CREATE INDEX mgmt_api_credentials_tenant ON mgmt_api_credentials (tenant_id, created_at);
      CREATE TABLE mgmt_admins (email TEXT PRIMARY KEY, created_at INTEGER NOT NULL, doc TEXT NOT NULL) STRICT;
      CREATE INDEX mgmt_admins_created ON mgmt_admins (created_at);
    `),
];

/** A copy of `o` without its undefined fields; `undefined` in a patch clears the field. */
function patched<T extends object>(row: T, patch: Record<string, unknown>): T {
  const next = { ...row } as Record<string, unknown>;
  for (const [field, value] of Object.entries(patch)) {
    if (value === undefined) delete next[field];
    else next[field] = value;
  }
  return next as T;
}

function tenantsOf(db: SqliteDocs<Tenant>): TenantRepository {
  return {
    async create(tenant) {
      db.atomic(() => {
        if (db.exists('tenant_id = ?', tenant.tenantId)) throw new DuplicateKeyError('tenantId');
        db.insert(patched(tenant, {}));
      });
    },
    get: async (tenantId) => db.one('tenant_id = ?', tenantId),
    list: async () => db.all('1'),
    async update(tenantId, patch) {
      return db.atomic(() => {
        const row = db.one('tenant_id = ?', tenantId);
        if (!row) return undefined;
        const next = patched(row, patch);
        db.replace(next, 'tenant_id = ?', tenantId);
        return next;
      });
    },
    remove: async (tenantId) => db.delete('tenant_id = ?', tenantId) === 1,
  };
}

function applicationsOf(db: SqliteDocs<Application>): ApplicationRepository {
  const mine = 'tenant_id = ? AND app_id = ?';
  /** Applies `change` to the tenant's application in one transaction; undefined when there is none. */
  const change = (tenantId: string, appId: string, next: (row: Application) => Application | undefined) =>
    db.atomic(() => {
      const row = db.one(mine, tenantId, appId);
      const written = row && next(row);
      if (written) db.replace(written, mine, tenantId, appId);
      return written;
    });
  return {
    async create(app) {
      db.atomic(() => {
        if (db.exists('app_id = ?', app.appId)) throw new DuplicateKeyError('appId');
        if (db.exists('client_id = ?', app.clientId)) throw new DuplicateKeyError('clientId');
        db.insert(patched(app, {}));
      });
    },
    get: async (tenantId, appId) => db.one(mine, tenantId, appId),
    list: async (tenantId) => db.all('tenant_id = ?', tenantId),
    update: async (tenantId, appId, patch) => change(tenantId, appId, (row) => patched(row, patch)),
    replaceSecret: async (tenantId, appId, secret) =>
      change(tenantId, appId, (row) =>
        row.clientType === 'confidential' ? { ...row, ...secret } : undefined,
      ),
    setClientType: async (tenantId, appId, to) =>
      change(tenantId, appId, (row) =>
        to.clientType === 'public'
          ? patched(row, { ...to, clientSecretHash: undefined, clientSecretSealed: undefined })
          : { ...row, ...to },
      ),
    async remove(tenantId, appId) {
      return db.atomic(() => {
        const row = db.one(mine, tenantId, appId);
        if (row) db.delete(mine, tenantId, appId);
        return row;
      });
    },
    findByClientId: async (clientId) => db.one('client_id = ?', clientId),
  };
}

function credentialsOf(db: SqliteDocs<ApiCredentials>): CredentialsRepository {
  const mine = 'tenant_id = ? AND credentials_id = ?';
  return {
    async create(credentials) {
      db.atomic(() => {
        if (db.exists('credentials_id = ?', credentials.credentialsId)) {
          throw new DuplicateKeyError('credentialsId');
        }
        db.insert(patched(credentials, {}));
      });
    },
    get: async (tenantId, credentialsId) => db.one(mine, tenantId, credentialsId),
    list: async (tenantId) => db.all('tenant_id = ?', tenantId),
    async revoke(tenantId, credentialsId, at) {
      return db.atomic(() => {
        const row = db.one(`${mine} AND revoked_at IS NULL`, tenantId, credentialsId);
        if (!row) return undefined;
        const next = { ...row, revokedAt: at };
        db.replace(next, mine, tenantId, credentialsId);
        return next;
      });
    },
    findById: async (credentialsId) => db.one('credentials_id = ?', credentialsId),
  };
}

function adminsOf(db: SqliteDocs<Admin>): AdminRepository {
  return {
    async touch(email, at) {
      db.atomic(() => {
        const row = db.one('email = ?', email);
        if (!row) db.insert({ email, createdAt: at, lastSeenAt: at });
        else if (at > row.lastSeenAt) db.replace({ ...row, lastSeenAt: at }, 'email = ?', email);
      });
    },
    list: async () => db.all('1'),
  };
}

/** The directory (and its branding) in the embedded engine; the engine is closed by whoever opened it. */
export function sqliteDirectory(store: EmbeddedStore): DirectoryRepositories {
  store.migrate('mgmt.directory', MIGRATIONS);
  const { db } = store;
  return {
    tenants: tenantsOf(
      new SqliteDocs<Tenant>(db, 'mgmt_tenants', (t) => ({ tenant_id: t.tenantId, created_at: t.createdAt })),
    ),
    applications: applicationsOf(
      new SqliteDocs<Application>(db, 'mgmt_applications', (a) => ({
        app_id: a.appId,
        tenant_id: a.tenantId,
        client_id: a.clientId,
        client_type: a.clientType,
        created_at: a.createdAt,
      })),
    ),
    credentials: credentialsOf(
      new SqliteDocs<ApiCredentials>(db, 'mgmt_api_credentials', (c) => ({
        credentials_id: c.credentialsId,
        tenant_id: c.tenantId,
        revoked_at: c.revokedAt ?? null,
        created_at: c.createdAt,
      })),
    ),
    admins: adminsOf(
      new SqliteDocs<Admin>(db, 'mgmt_admins', (a) => ({ email: a.email, created_at: a.createdAt })),
    ),
    branding: sqliteBranding(store),
  };
}
