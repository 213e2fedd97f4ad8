import { DuplicateKeyError } from '../directory/directory.repository';
import type { AdminAccount, Invitation, PersonalApiToken } from './model';
import type {
  AdminAccountRepository,
  AdminsRepositories,
  ApiTokenRepository,
  InvitationRepository,
} from './repository';

const copy = <T>(v: T): T => structuredClone(v);
const byCreated = <T extends { createdAt: number }>(a: T, b: T) => a.createdAt - b.createdAt;
const key = (tenantId: string, email: string) => `${tenantId}\u0000${email}`;

class MemoryAccounts implements AdminAccountRepository {
  private readonly rows = new Map<string, AdminAccount>();
  async create(account: AdminAccount) {
    const k = key(account.tenantId, account.email);
    if (this.rows.has(k)) throw new DuplicateKeyError('administrator');
    this.rows.set(k, copy(account));
  }
  async get(tenantId: string, email: string) {
    const row = this.rows.get(key(tenantId, email));
    return row && copy(row);
  }
  async list(tenantId: string) {
    return [...this.rows.values()]
      .filter((a) => a.tenantId === tenantId)
      .sort(byCreated)
      .map(copy);
  }
  async listByEmail(email: string) {
    return [...this.rows.values()]
      .filter((a) => a.email === email)
      .sort(byCreated)
      .map(copy);
  }
  async setRole(tenantId: string, email: string, role: AdminAccount['role']) {
    const row = this.rows.get(key(tenantId, email));
    if (!row) return undefined;
    row.role = role;
    return copy(row);
  }
  async remove(tenantId: string, email: string) {
    const row = this.rows.get(key(tenantId, email));
    this.rows.delete(key(tenantId, email));
    return row;
  }
  async countOwners(tenantId: string) {
    return [...this.rows.values()].filter((a) => a.tenantId === tenantId && a.role === 'owner').length;
  }
  async anyOwner() {
    return [...this.rows.values()].some((a) => a.role === 'owner');
  }
  async touch(tenantId: string, email: string, at: number) {
    const row = this.rows.get(key(tenantId, email));
    if (row) row.lastSignInAt = Math.max(row.lastSignInAt ?? 0, at);
  }
}

class MemoryInvitations implements InvitationRepository {
  private readonly rows = new Map<string, Invitation>();
  async create(invitation: Invitation) {
    if (this.rows.has(invitation.invitationId)) throw new DuplicateKeyError('invitationId');
    this.rows.set(invitation.invitationId, copy(invitation));
  }
  async findByTokenHash(tokenHash: string) {
    const row = [...this.rows.values()].find((i) => i.tokenHash === tokenHash);
    return row && copy(row);
  }
  async markAccepted(invitationId: string, at: number) {
    const row = this.rows.get(invitationId);
    if (!row || row.acceptedAt !== undefined) return undefined;
    row.acceptedAt = at;
    return copy(row);
  }
  async list(tenantId: string) {
    return [...this.rows.values()]
      .filter((i) => i.tenantId === tenantId)
      .sort(byCreated)
      .map(copy);
  }
}

class MemoryTokens implements ApiTokenRepository {
  private readonly rows = new Map<string, PersonalApiToken>();
  async create(token: PersonalApiToken) {
    if (this.rows.has(token.tokenId)) throw new DuplicateKeyError('tokenId');
    this.rows.set(token.tokenId, copy(token));
  }
  async findByHash(tokenHash: string) {
    const row = [...this.rows.values()].find((t) => t.tokenHash === tokenHash);
    return row && copy(row);
  }
  async list(tenantId: string, email: string) {
    return [...this.rows.values()]
      .filter((t) => t.tenantId === tenantId && t.email === email)
      .sort(byCreated)
      .map(copy);
  }
  async revoke(tenantId: string, email: string, tokenId: string, at: number) {
    const row = this.rows.get(tokenId);
    if (!row || row.tenantId !== tenantId || row.email !== email || row.revokedAt !== undefined) {
      return undefined;
    }
    row.revokedAt = at;
    return copy(row);
  }
  async revokeAllOf(tenantId: string, email: string, at: number) {
    let n = 0;
    for (const row of this.rows.values()) {
      if (row.tenantId === tenantId && row.email === email && row.revokedAt === undefined) {
        row.revokedAt = at;
        n++;
      }
    }
    return n;
  }
  async touch(tokenId: string, at: number) {
    const row = this.rows.get(tokenId);
    if (row) row.lastUsedAt = Math.max(row.lastUsedAt ?? 0, at);
  }
}

/** In-memory administrators for the embedded default and unit tests. */
export function memoryAdmins(): AdminsRepositories {
  return { accounts: new MemoryAccounts(), invitations: new MemoryInvitations(), tokens: new MemoryTokens() };
}
