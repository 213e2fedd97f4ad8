import type { EmbeddedStore, Migration } from '@sesame/embedded-store';
import { DuplicateKeyError } from '../directory/directory.repository';
import { SqliteDocs } from '../directory/sqlite-docs';
import type { AdminAccount, Invitation, InvitationVoiding, PersonalApiToken } from './model';
import type {
  AdminAccountRepository,
  AdminsRepositories,
  ApiTokenRepository,
  InvitationRepository,
} from './repository';

/**
 * Administrators in the embedded default's durable engine (component `mgmt.admins`): accounts, invitations
 * (the link token only as its hash) and personal API tokens (only their hash). Each method is one synchronous
 * transaction, so an acceptance racing a cancellation leaves exactly one of them.
 */
const MIGRATIONS: readonly Migration[] = [
  (db) =>
    db.exec(`
      CREATE TABLE mgmt_admin_accounts (tenant_id TEXT NOT NULL, email TEXT NOT NULL, role TEXT NOT NULL,
        created_at INTEGER NOT NULL, doc TEXT NOT NULL, PRIMARY KEY (tenant_id, email)) STRICT;
      CREATE INDEX mgmt_admin_accounts_tenant ON mgmt_admin_accounts (tenant_id, created_at);
      CREATE INDEX mgmt_admin_accounts_email ON mgmt_admin_accounts (email, created_at);
      CREATE INDEX mgmt_admin_accounts_role ON mgmt_admin_accounts (role, tenant_id);
      CREATE TABLE mgmt_admin_invitations (invitation_id TEXT PRIMARY KEY, tenant_id TEXT NOT NULL,
        email TEXT NOT NULL, invited_by TEXT NOT NULL, token_hash TEXT NOT NULL UNIQUE, open INTEGER NOT NULL,
        created_at INTEGER NOT NULL, doc TEXT NOT NULL) STRICT;
      CREATE INDEX mgmt_admin_invitations_tenant ON mgmt_admin_invitations (tenant_id, created_at);
      CREATE INDEX mgmt_admin_invitations_to ON mgmt_admin_invitations (tenant_id, email, open);
      CREATE INDEX mgmt_admin_invitations_by ON mgmt_admin_invitations (tenant_id, invited_by, open);
      CREATE TABLE mgmt_admin_tokens (token_id TEXT PRIMARY KEY, tenant_id TEXT NOT NULL, email TEXT NOT NULL,
        token_hash TEXT NOT NULL UNIQUE, revoked_at INTEGER, created_at INTEGER NOT NULL, doc TEXT NOT NULL) STRICT;
      CREATE INDEX mgmt_admin_tokens_person ON mgmt_admin_tokens (tenant_id, email, created_at);
      CREATE INDEX mgmt_admin_tokens_tenant ON mgmt_admin_tokens (tenant_id, created_at);
    `),
];

function accountsOf(db: SqliteDocs<AdminAccount>): AdminAccountRepository {
  const mine = 'tenant_id = ? AND email = ?';
  return {
    async create(account) {
      db.atomic(() => {
        if (db.exists(mine, account.tenantId, account.email)) throw new DuplicateKeyError('administrator');
        db.insert(account);
      });
    },
    get: async (tenantId, email) => db.one(mine, tenantId, email),
    list: async (tenantId) => db.all('tenant_id = ?', tenantId),
    listByEmail: async (email) => db.all('email = ?', email),
    async setRole(tenantId, email, role) {
      return db.atomic(() => {
        const row = db.one(mine, tenantId, email);
        if (!row) return undefined;
        const next = { ...row, role };
        db.replace(next, mine, tenantId, email);
        return next;
      });
    },
    async remove(tenantId, email) {
      return db.atomic(() => {
        const row = db.one(mine, tenantId, email);
        if (row) db.delete(mine, tenantId, email);
        return row;
      });
    },
    countOwners: async (tenantId) => db.count("tenant_id = ? AND role = 'owner'", tenantId),
    anyOwner: async () => db.exists("role = 'owner'"),
    async touch(tenantId, email, at) {
      db.atomic(() => {
        const row = db.one(mine, tenantId, email);
        if (row && at > (row.lastSignInAt ?? 0))
          db.replace({ ...row, lastSignInAt: at }, mine, tenantId, email);
      });
    },
  };
}

/** Neither accepted nor voided. */
const isOpen = (i: Invitation) => i.acceptedAt === undefined && i.cancelledAt === undefined;
const voided = (i: Invitation, { at, by, reason }: InvitationVoiding): Invitation => ({
  ...i,
  cancelledAt: at,
  cancelledBy: by,
  cancelReason: reason,
});

function invitationsOf(db: SqliteDocs<Invitation>): InvitationRepository {
  const byId = 'invitation_id = ?';
  /** Writes `next` over the open invitation `where` selects, in one transaction; undefined when none. */
  const onOpen = (where: string, params: string[], next: (i: Invitation) => Invitation) =>
    db.atomic(() => {
      const row = db.one(`${where} AND open = 1`, ...params);
      if (!row) return undefined;
      const written = next(row);
      db.replace(written, byId, row.invitationId);
      return written;
    });
  return {
    async create(invitation) {
      db.atomic(() => {
        if (db.exists(byId, invitation.invitationId)) throw new DuplicateKeyError('invitationId');
        if (db.exists('token_hash = ?', invitation.tokenHash)) throw new DuplicateKeyError('tokenHash');
        db.insert(invitation);
      });
    },
    findByTokenHash: async (tokenHash) => db.one('token_hash = ?', tokenHash),
    get: async (tenantId, invitationId) => db.one(`${byId} AND tenant_id = ?`, invitationId, tenantId),
    markAccepted: async (invitationId, at) => onOpen(byId, [invitationId], (i) => ({ ...i, acceptedAt: at })),
    list: async (tenantId) => db.all('tenant_id = ?', tenantId),
    cancel: async (tenantId, invitationId, voiding) =>
      onOpen(`${byId} AND tenant_id = ?`, [invitationId, tenantId], (i) => voided(i, voiding)),
    async cancelOpen(tenantId, who, voiding) {
      const [where, value] = 'to' in who ? ['email = ?', who.to] : ['invited_by = ?', who.by];
      return db.atomic(() => {
        const rows = db.all(`tenant_id = ? AND ${where} AND open = 1`, tenantId, value);
        for (const row of rows) db.replace(voided(row, voiding), byId, row.invitationId);
        return rows.length;
      });
    },
  };
}

function tokensOf(db: SqliteDocs<PersonalApiToken>): ApiTokenRepository {
  const byId = 'token_id = ?';
  return {
    async create(token) {
      db.atomic(() => {
        if (db.exists(byId, token.tokenId)) throw new DuplicateKeyError('tokenId');
        if (db.exists('token_hash = ?', token.tokenHash)) throw new DuplicateKeyError('tokenHash');
        db.insert(token);
      });
    },
    findByHash: async (tokenHash) => db.one('token_hash = ?', tokenHash),
    list: async (tenantId, email) =>
      email === undefined
        ? db.all('tenant_id = ?', tenantId)
        : db.all('tenant_id = ? AND email = ?', tenantId, email),
    async revoke(tenantId, email, tokenId, at) {
      return db.atomic(() => {
        const row = db.one(`${byId} AND tenant_id = ? AND revoked_at IS NULL`, tokenId, tenantId);
        if (!row || (email !== undefined && row.email !== email)) return undefined;
        const next = { ...row, revokedAt: at };
        db.replace(next, byId, tokenId);
        return next;
      });
    },
    async revokeAllOf(tenantId, email, at) {
      return db.atomic(() => {
        const rows = db.all('tenant_id = ? AND email = ? AND revoked_at IS NULL', tenantId, email);
        for (const row of rows) db.replace({ ...row, revokedAt: at }, byId, row.tokenId);
        return rows.length;
      });
    },
    async touch(tokenId, at) {
      db.atomic(() => {
        const row = db.one(byId, tokenId);
        if (row && at > (row.lastUsedAt ?? 0)) db.replace({ ...row, lastUsedAt: at }, byId, tokenId);
      });
    },
  };
}

/** Administrators in the embedded engine; the engine is closed by whoever opened it. */
export function sqliteAdmins(store: EmbeddedStore): AdminsRepositories {
  store.migrate('mgmt.admins', MIGRATIONS);
  const { db } = store;
  return {
    accounts: accountsOf(
      new SqliteDocs<AdminAccount>(db, 'mgmt_admin_accounts', (a) => ({
        tenant_id: a.tenantId,
        email: a.email,
        role: a.role,
        created_at: a.createdAt,
      })),
    ),
    invitations: invitationsOf(
      new SqliteDocs<Invitation>(db, 'mgmt_admin_invitations', (i) => ({
        invitation_id: i.invitationId,
        tenant_id: i.tenantId,
        email: i.email,
        invited_by: i.invitedBy,
        token_hash: i.tokenHash,
        open: isOpen(i) ? 1 : 0,
        created_at: i.createdAt,
      })),
    ),
    tokens: tokensOf(
      new SqliteDocs<PersonalApiToken>(db, 'mgmt_admin_tokens', (t) => ({
        token_id: t.tokenId,
        tenant_id: t.tenantId,
        email: t.email,
        token_hash: t.tokenHash,
        revoked_at: t.revokedAt ?? null,
        created_at: t.createdAt,
      })),
    ),
  };
}
