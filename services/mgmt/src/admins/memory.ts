import { MemoryRows, copy } from '../directory/memory-rows';
import type { AdminAccount, Invitation, InvitationVoiding, PersonalApiToken } from './model';
import type {
  AdminAccountRepository,
  AdminsRepositories,
  ApiTokenRepository,
  InvitationRepository,
} from './repository';

const key = (tenantId: string, email: string) => `${tenantId}\u0000${email}`;

class MemoryAccounts implements AdminAccountRepository {
  private readonly rows = new MemoryRows<AdminAccount>();
  async create(account: AdminAccount) {
    this.rows.insert(key(account.tenantId, account.email), account, 'administrator');
  }
  async get(tenantId: string, email: string) {
    return this.rows.get(key(tenantId, email));
  }
  async list(tenantId: string) {
    return this.rows.list((a) => a.tenantId === tenantId);
  }
  async listByEmail(email: string) {
    return this.rows.list((a) => a.email === email);
  }
  async setRole(tenantId: string, email: string, role: AdminAccount['role']) {
    const row = this.rows.live(key(tenantId, email));
    if (!row) return undefined;
    row.role = role;
    return copy(row);
  }
  async remove(tenantId: string, email: string) {
    const row = this.rows.live(key(tenantId, email));
    this.rows.delete(key(tenantId, email));
    return row;
  }
  async countOwners(tenantId: string) {
    return this.rows.values().filter((a) => a.tenantId === tenantId && a.role === 'owner').length;
  }
  async anyOwner() {
    return this.rows.values().some((a) => a.role === 'owner');
  }
  async touch(tenantId: string, email: string, at: number) {
    const row = this.rows.live(key(tenantId, email));
    if (row) row.lastSignInAt = Math.max(row.lastSignInAt ?? 0, at);
  }
}

class MemoryInvitations implements InvitationRepository {
  private readonly rows = new MemoryRows<Invitation>();
  async create(invitation: Invitation) {
    this.rows.insert(invitation.invitationId, invitation, 'invitationId');
  }
  async findByTokenHash(tokenHash: string) {
    return this.rows.find((i) => i.tokenHash === tokenHash);
  }
  async get(tenantId: string, invitationId: string) {
    const row = this.rows.get(invitationId);
    return row?.tenantId === tenantId ? row : undefined;
  }
  async markAccepted(invitationId: string, at: number) {
    const row = this.rows.live(invitationId);
    if (!row || !open(row)) return undefined;
    row.acceptedAt = at;
    return copy(row);
  }
  async list(tenantId: string) {
    return this.rows.list((i) => i.tenantId === tenantId);
  }
  async cancel(tenantId: string, invitationId: string, voiding: InvitationVoiding) {
    const row = this.rows.live(invitationId);
    if (!row || row.tenantId !== tenantId || !open(row)) return undefined;
    voidRow(row, voiding);
    return copy(row);
  }
  async cancelOpen(tenantId: string, who: { to: string } | { by: string }, voiding: InvitationVoiding) {
    const rows = this.rows
      .values()
      .filter(
        (i) =>
          i.tenantId === tenantId && open(i) && ('to' in who ? i.email === who.to : i.invitedBy === who.by),
      );
    for (const row of rows) voidRow(row, voiding);
    return rows.length;
  }
}

/** Neither accepted nor voided. */
const open = (i: Invitation) => i.acceptedAt === undefined && i.cancelledAt === undefined;
function voidRow(row: Invitation, { at, by, reason }: InvitationVoiding) {
  row.cancelledAt = at;
  row.cancelledBy = by;
  row.cancelReason = reason;
}

class MemoryTokens implements ApiTokenRepository {
  private readonly rows = new MemoryRows<PersonalApiToken>();
  async create(token: PersonalApiToken) {
    this.rows.insert(token.tokenId, token, 'tokenId');
  }
  async findByHash(tokenHash: string) {
    return this.rows.find((t) => t.tokenHash === tokenHash);
  }
  async list(tenantId: string, email?: string) {
    return this.rows.list((t) => t.tenantId === tenantId && (email === undefined || t.email === email));
  }
  async revoke(tenantId: string, email: string | undefined, tokenId: string, at: number) {
    const row = this.rows.live(tokenId);
    const theirs = email === undefined || row?.email === email;
    if (!row || row.tenantId !== tenantId || !theirs || row.revokedAt !== undefined) {
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
    const row = this.rows.live(tokenId);
    if (row) row.lastUsedAt = Math.max(row.lastUsedAt ?? 0, at);
  }
}

/** In-memory administrators for the embedded default and unit tests. */
export function memoryAdmins(): AdminsRepositories {
  return { accounts: new MemoryAccounts(), invitations: new MemoryInvitations(), tokens: new MemoryTokens() };
}
