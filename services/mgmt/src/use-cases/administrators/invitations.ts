import type { MailLocale } from '@sesame/branding';
import type { SendLimiter } from '@sesame/kv';
import { type Clock, MgmtError, newId, newSecret, sha256 } from '@sesame/platform';
import { reserveInvitationMail } from '../../admins/invitation-mail-limit';
import type { AdminAccount, AdminRole, Invitation } from '../../admins/model';
import { isAllowed } from '../../admins/permissions';
import type { AdminsRepositories } from '../../admins/repository';
import type { BrandingRepository } from '../../branding/repository';
import type { Tenant } from '../../directory/model';
import {
  type AdminContext,
  type AdminEventPublisher,
  type Emit,
  adminActivity,
} from '../../events/admin-events';
import { invitationMail } from './invitation-mail';

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

export const invitationView = (i: Invitation) => ({
  invitationId: i.invitationId,
  tenantId: i.tenantId,
  email: i.email,
  role: i.role,
  invitedBy: i.invitedBy,
  createdAt: i.createdAt,
  expiresAt: i.expiresAt,
  ...(i.acceptedAt !== undefined ? { acceptedAt: i.acceptedAt } : {}),
  ...(i.cancelledAt !== undefined
    ? { cancelledAt: i.cancelledAt, cancelledBy: i.cancelledBy, cancelReason: i.cancelReason }
    : {}),
});

/** pending (may still be accepted), accepted, cancelled (voided) or expired. */
export function invitationStatus(i: Invitation, now: number) {
  if (i.acceptedAt !== undefined) return 'accepted' as const;
  if (i.cancelledAt !== undefined) return 'cancelled' as const;
  return i.expiresAt > now ? ('pending' as const) : ('expired' as const);
}

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
  /** At most 10 invitation mails per address per day (invitation-mail-limit.ts); absent: no limit. */
  mailLimits?: SendLimiter;
}

/**
 * Invitations to become an administrator: a single-use link (only its sha256 hash is stored) mailed to
 * the invitee; accepting requires being signed in with the invited email.
 */
export class Invitations {
  constructor(private readonly deps: InvitationsDeps) {}

  /**
   * Mails and then stores an invitation, in `locale` (the invitee's language, as the inviter chose it); emits
   * administrator_tenant_invitation as the inviting caller. The older open invitations to the same address
   * in the tenant are voided (replaced): one live link per person. Over the mail limit: 429, nothing written.
   * A mail that cannot be made or sent stores nothing and voids nothing (no live link nobody received).
   */
  async invite(
    tenant: Tenant,
    email: string,
    role: AdminRole,
    emit: Emit,
    invitedBy = 'bootstrap-key',
    locale: MailLocale = 'en',
  ) {
    await reserveInvitationMail(this.deps.mailLimits, email);
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
    // The mail first: an invitation whose mail cannot be made or sent is not stored and replaces nothing
    // (nothing half-done). Its link works once the invitation is stored, a moment later.
    await this.deps.mailer.send(await invitationMail(this.deps, tenant, email, values, locale));
    const replaced = await this.deps.admins.invitations.cancelOpen(
      tenant.tenantId,
      { to: email },
      { at: now, by: invitedBy, reason: 'replaced' },
    );
    await this.deps.admins.invitations.create(invitation);
    if (replaced > 0) {
      await emit(tenant.tenantId, adminActivity.cancelInvitation, {
        email,
        reason: 'replaced',
        count: replaced,
      });
    }
    await emit(tenant.tenantId, adminActivity.tenantInvitation, { email });
    return invitationView(invitation);
  }

  /**
   * Voids one open invitation of the tenant (an Owner cancels it) and emits administrator_cancel_invitation
   * as the caller. 404 invitation_not_found for none in this tenant; 409 invitation_used for an accepted one
   * (remove the administrator instead); 409 invitation_cancelled for one already voided.
   */
  async cancel(tenantId: string, invitationId: string, emit: Emit, cancelledBy: string) {
    const found = await this.deps.admins.invitations.get(tenantId, invitationId);
    if (!found) throw new MgmtError(404, 'invitation_not_found', 'no such invitation in this tenant');
    const now = this.deps.clock.now();
    const cancelled = await this.deps.admins.invitations.cancel(tenantId, invitationId, {
      at: now,
      by: cancelledBy,
      reason: 'cancelled',
    });
    if (!cancelled) {
      const latest = (await this.deps.admins.invitations.get(tenantId, invitationId)) ?? found;
      if (latest.acceptedAt !== undefined) {
        throw new MgmtError(
          409,
          'invitation_used',
          'this invitation was already accepted; remove the administrator instead',
        );
      }
      throw new MgmtError(409, 'invitation_cancelled', 'this invitation was already cancelled');
    }
    await emit(tenantId, adminActivity.cancelInvitation, {
      invitationId,
      email: cancelled.email,
      role: cancelled.role,
      reason: 'cancelled',
    });
    return invitationView(cancelled);
  }

  /**
   * The invitation of `linkToken` as the signed-in `signedInEmail` may accept it (the console shows it before
   * accepting): the same refusals as accept, nothing written (an expired link still records
   * expired_invitation_consumption).
   */
  async inspect(
    linkToken: string,
    signedInEmail: string,
    caller: Omit<AdminContext, 'adminEmail'>,
  ): Promise<Invitation> {
    const email = signedInEmail.toLowerCase();
    const found = await this.deps.admins.invitations.findByTokenHash(sha256(linkToken));
    if (!found) throw new MgmtError(404, 'invitation_not_found', 'no such invitation');
    if (found.acceptedAt !== undefined) {
      throw new MgmtError(410, 'invitation_used', 'this invitation was already accepted');
    }
    if (found.email !== email) {
      throw new MgmtError(403, 'invitation_email_mismatch', 'this invitation is for another email address');
    }
    if (found.cancelledAt !== undefined || !(await this.inviterMayInvite(found))) {
      throw new MgmtError(
        410,
        'invitation_cancelled',
        'this invitation was cancelled; ask an Owner for a new one',
      );
    }
    if (found.expiresAt <= this.deps.clock.now()) {
      const who = { ...caller, adminEmail: email };
      await this.deps.events.publish(who, found.tenantId, adminActivity.expiredInvitationConsumption, {});
      throw new MgmtError(410, 'invitation_expired', 'this invitation has expired; ask for a new one');
    }
    if (await this.deps.admins.accounts.get(found.tenantId, email)) {
      throw new MgmtError(409, 'already_administrator', 'you are already an administrator of this tenant');
    }
    return found;
  }

  /** Whoever made the invitation may still invite: the bootstrap key, or an Owner of the tenant now. */
  private async inviterMayInvite(i: Invitation): Promise<boolean> {
    if (i.invitedBy === 'bootstrap-key') return true;
    const inviter = await this.deps.admins.accounts.get(i.tenantId, i.invitedBy);
    return inviter !== undefined && isAllowed(inviter.role, 'administrators.invite');
  }

  /**
   * Accepts the invitation of `linkToken` for the administrator signed in as `signedInEmail`: creates
   * their account with the invited role and emits _status_approved as them. Refused, with nothing
   * written: an unknown link (404), a used one (410 invitation_used), another email (403
   * invitation_email_mismatch), a voided one or one whose inviter is no longer an Owner (410
   * invitation_cancelled), an existing administrator (409). An expired link is 410 invitation_expired and
   * emits expired_invitation_consumption.
   */
  async accept(
    linkToken: string,
    signedInEmail: string,
    caller: Omit<AdminContext, 'adminEmail'>,
  ): Promise<AdminAccount> {
    const found = await this.inspect(linkToken, signedInEmail, caller);
    const now = this.deps.clock.now();
    if (!(await this.deps.admins.invitations.markAccepted(found.invitationId, now))) {
      // Used or voided since inspect read it: the atomic update decides.
      const latest = await this.deps.admins.invitations.get(found.tenantId, found.invitationId);
      if (latest?.cancelledAt !== undefined) {
        throw new MgmtError(
          410,
          'invitation_cancelled',
          'this invitation was cancelled; ask an Owner for a new one',
        );
      }
      throw new MgmtError(410, 'invitation_used', 'this invitation was already accepted');
    }
    const account: AdminAccount = {
      tenantId: found.tenantId,
      email: found.email,
      role: found.role,
      createdAt: now,
    };
    await this.deps.admins.accounts.create(account);
    const who = { ...caller, adminEmail: found.email };
    await this.deps.events.publish(who, found.tenantId, adminActivity.invitationApproved, {});
    return account;
  }
}
