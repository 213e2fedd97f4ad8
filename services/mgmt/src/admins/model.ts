/** What an administrator may do in a tenant (permissions.ts maps each admin action to the roles allowed it). */
export const adminRoles = ['owner', 'administrator', 'support'] as const;
export type AdminRole = (typeof adminRoles)[number];

/** An administrator: a person (email, lower-cased) with one role in one tenant. */
export interface AdminAccount {
  tenantId: string;
  email: string;
  role: AdminRole;
  createdAt: number;
  /** When the administrator last signed in to the console or used a personal API token. */
  lastSignInAt?: number;
}

/** An invitation to become an administrator; the link token is only ever stored as its sha256 hash. */
export interface Invitation {
  invitationId: string;
  tenantId: string;
  email: string;
  role: AdminRole;
  tokenHash: string;
  /** Email of who invited, or `bootstrap-key`. */
  invitedBy: string;
  createdAt: number;
  expiresAt: number;
  acceptedAt?: number;
  /** Set once when the invitation is voided before use: it can then never be accepted. */
  cancelledAt?: number;
  /** Who voided it: an Owner's email, `bootstrap-key`, or (for a removal or role change) who made that change. */
  cancelledBy?: string;
  cancelReason?: InvitationCancelReason;
}

/**
 * Why an invitation was voided: an Owner cancelled it; a newer invitation to the same address replaced it;
 * its invitee or its inviter was removed or changed role.
 */
export const invitationCancelReasons = ['cancelled', 'replaced', 'removed', 'role_changed'] as const;
export type InvitationCancelReason = (typeof invitationCancelReasons)[number];

/** Who voids an invitation, when and why. */
export interface InvitationVoiding {
  at: number;
  by: string;
  reason: InvitationCancelReason;
}

/** A personal API token: acts with its creator's role in the creator's tenant; stored as its sha256 hash. */
export interface PersonalApiToken {
  tokenId: string;
  tenantId: string;
  email: string;
  name: string;
  tokenHash: string;
  createdAt: number;
  expiresAt: number;
  revokedAt?: number;
  lastUsedAt?: number;
}
