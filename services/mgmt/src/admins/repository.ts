import type { AdminAccount, AdminRole, Invitation, InvitationVoiding, PersonalApiToken } from './model';

/** Administrator accounts, one per (tenant, email). */
export interface AdminAccountRepository {
  /** Rejects with DuplicateKeyError when the tenant has an administrator with this email. */
  create(account: AdminAccount): Promise<void>;
  get(tenantId: string, email: string): Promise<AdminAccount | undefined>;
  /** Oldest first. */
  list(tenantId: string): Promise<AdminAccount[]>;
  /** Every tenant's account of one person, oldest first. */
  listByEmail(email: string): Promise<AdminAccount[]>;
  setRole(tenantId: string, email: string, role: AdminRole): Promise<AdminAccount | undefined>;
  /** Returns the removed account. */
  remove(tenantId: string, email: string): Promise<AdminAccount | undefined>;
  countOwners(tenantId: string): Promise<number>;
  /** Whether any tenant of this install has an Owner (the bootstrap key is refused from then on). */
  anyOwner(): Promise<boolean>;
  /** Records a sign-in or token use; lastSignInAt only moves forward. */
  touch(tenantId: string, email: string, at: number): Promise<void>;
}

export interface InvitationRepository {
  create(invitation: Invitation): Promise<void>;
  findByTokenHash(tokenHash: string): Promise<Invitation | undefined>;
  /** One invitation of a tenant (another tenant's is undefined). */
  get(tenantId: string, invitationId: string): Promise<Invitation | undefined>;
  /**
   * Sets acceptedAt once (single use); undefined when there is no such invitation, it was used, or it was
   * voided (one atomic check, so a cancellation racing an acceptance leaves exactly one of them).
   */
  markAccepted(invitationId: string, at: number): Promise<Invitation | undefined>;
  /** Oldest first, accepted and voided ones included. */
  list(tenantId: string): Promise<Invitation[]>;
  /** Voids one open (neither accepted nor voided) invitation of the tenant; undefined when there is none. */
  cancel(tenantId: string, invitationId: string, voiding: InvitationVoiding): Promise<Invitation | undefined>;
  /**
   * Voids every open invitation of the tenant to `email` (`to`) or made by `email` (`by`); returns how many.
   */
  cancelOpen(
    tenantId: string,
    who: { to: string } | { by: string },
    voiding: InvitationVoiding,
  ): Promise<number>;
}

export interface ApiTokenRepository {
  create(token: PersonalApiToken): Promise<void>;
  findByHash(tokenHash: string): Promise<PersonalApiToken | undefined>;
  /**
   * One person's tokens in a tenant (every administrator's without `email`: what an Owner sees), oldest first,
   * revoked ones included.
   */
  list(tenantId: string, email?: string): Promise<PersonalApiToken[]>;
  /**
   * Sets revokedAt once; undefined when there is no such live token of this person in this tenant (without
   * `email`: of any administrator of the tenant, an Owner's revocation).
   */
  revoke(
    tenantId: string,
    email: string | undefined,
    tokenId: string,
    at: number,
  ): Promise<PersonalApiToken | undefined>;
  /** Revokes every live token of a person in a tenant (the administrator was removed); returns how many. */
  revokeAllOf(tenantId: string, email: string, at: number): Promise<number>;
  /** Records a use. */
  touch(tokenId: string, at: number): Promise<void>;
}

export interface AdminsRepositories {
  accounts: AdminAccountRepository;
  invitations: InvitationRepository;
  tokens: ApiTokenRepository;
}
