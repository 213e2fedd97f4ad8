import type { MailLocale } from '@sesame/branding';
import { type Clock, MgmtError, newId, newSecret, sha256 } from '@sesame/platform';
import type { AdminContext } from '../admin/admin-auth';
import { type AdminActivityType, type AdminEventPublisher, adminActivity } from '../admin/admin-events';
import { invitationMail } from '../branding/invitation-mail';
import type { BrandingRepository } from '../branding/repository';
import type { Tenant } from '../directory/model';
import type { AdminAccount, AdminRole, Invitation } from './model';
import type { AdminsRepositories } from './repository';

/** The mail port (MailSender of the mail library has this shape): SMTP in deployments, the outbox in dev. */
export interface InvitationMailer {
  send(mail: {
    to: string;
    subject: string;
    text: string;
    html: string;
    fromName?: string;
    replyTo?: string;
  }): Promise<unknown>;
}

/** Publishes one admin event as the caller of the current admin call. */
export type Emit = (
  tenantId: string,
  activityType: AdminActivityType,
  data: Record<string, unknown>,
) => Promise<void>;

export const invitationView = (i: Invitation) => ({
  invitationId: i.invitationId,
  tenantId: i.tenantId,
  email: i.email,
  role: i.role,
  invitedBy: i.invitedBy,
  createdAt: i.createdAt,
  expiresAt: i.expiresAt,
  ...(i.acceptedAt !== undefined ? { acceptedAt: i.acceptedAt } : {}),
});

export interface InvitationsDeps {
  admins: AdminsRepositories;
  events: AdminEventPublisher;
  clock: Clock;
  mailer: InvitationMailer;
  /** `{admin_url}/console`: the link is `<consoleUrl>/invitations/<token>`. */
  consoleUrl: string;
  /** How long a link stays valid (default 72 hours). */
  ttlMs: number;
  /** The tenant's branding and its text of the invitation mail (else Sesame's); auth_url serves its logo. */
  branding?: BrandingRepository;
  authUrl?: string;
}

/**
 * Invitations to become an administrator: a single-use link (only its sha256 hash is stored) mailed to
 * the invitee; accepting requires being signed in with the invited email.
 */
export class Invitations {
  constructor(private readonly deps: InvitationsDeps) {}

  /**
   * Mails and then stores an invitation, in `locale` (the invitee's language, as the inviter chose it); emits
   * administrator_tenant_invitation as the inviting caller.
   */
  async invite(
    tenant: Tenant,
    email: string,
    role: AdminRole,
    emit: Emit,
    invitedBy = 'bootstrap-key',
    locale: MailLocale = 'en',
  ) {
    const token = newSecret();
    const now = this.deps.clock.now();
    const invitation: Invitation = {
      invitationId: newId(),
      tenantId: tenant.tenantId,
      email,
      role,
      tokenHash: sha256(token),
      invitedBy,
      createdAt: now,
      expiresAt: now + this.deps.ttlMs,
    };
    const link = `${this.deps.consoleUrl}/invitations/${token}`;
    const hours = Math.round(this.deps.ttlMs / 3_600_000);
    const values = { tenant: tenant.name, role, email, link, expiresInHours: String(hours) };
    // The mail first: an invitation whose mail cannot be made or sent is not stored (nothing half-done).
    // Its link works once the invitation is stored, a moment later.
    await this.deps.mailer.send(await invitationMail(this.deps, tenant, email, values, locale));
    await this.deps.admins.invitations.create(invitation);
    await emit(tenant.tenantId, adminActivity.tenantInvitation, { email });
    return invitationView(invitation);
  }

  /**
   * Accepts the invitation of `linkToken` for the administrator signed in as `signedInEmail`: creates
   * their account with the invited role and emits _status_approved as them. Refused, with nothing
   * written: an unknown link (404), a used one (410 invitation_used), another email (403
   * invitation_email_mismatch), an existing administrator (409). An expired link is 410
   * invitation_expired and emits expired_invitation_consumption.
   */
  async accept(
    linkToken: string,
    signedInEmail: string,
    caller: Omit<AdminContext, 'adminEmail'>,
  ): Promise<AdminAccount> {
    const email = signedInEmail.toLowerCase();
    const found = await this.deps.admins.invitations.findByTokenHash(sha256(linkToken));
    if (!found) throw new MgmtError(404, 'invitation_not_found', 'no such invitation');
    if (found.acceptedAt !== undefined) {
      throw new MgmtError(410, 'invitation_used', 'this invitation was already accepted');
    }
    if (found.email !== email) {
      throw new MgmtError(403, 'invitation_email_mismatch', 'this invitation is for another email address');
    }
    const now = this.deps.clock.now();
    const who = { ...caller, adminEmail: email };
    if (found.expiresAt <= now) {
      await this.deps.events.publish(who, found.tenantId, adminActivity.expiredInvitationConsumption, {});
      throw new MgmtError(410, 'invitation_expired', 'this invitation has expired; ask for a new one');
    }
    if (await this.deps.admins.accounts.get(found.tenantId, email)) {
      throw new MgmtError(409, 'already_administrator', 'you are already an administrator of this tenant');
    }
    if (!(await this.deps.admins.invitations.markAccepted(found.invitationId, now))) {
      throw new MgmtError(410, 'invitation_used', 'this invitation was already accepted');
    }
    const account: AdminAccount = { tenantId: found.tenantId, email, role: found.role, createdAt: now };
    await this.deps.admins.accounts.create(account);
    await this.deps.events.publish(who, found.tenantId, adminActivity.invitationApproved, {});
    return account;
  }
}
