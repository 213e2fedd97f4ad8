import { isIP } from 'node:net';
import { type FlowEvents, newFlowId } from '@sesame/flow-events';
import type { OutgoingMail } from '@sesame/mail';
import type { Logger } from '@sesame/platform';
import { brandedMail } from '../../branding/brand-mail';
import type { Brands } from '../../branding/brands';
import type { MembershipRepository, UserRepository } from '../../users/users.repository';
import type { Invitation, RegistrationLinks } from './links';

/** The default lifetime of a registration link (spec 8: 30 minutes unless the app's setting says otherwise). */
export const DEFAULT_REGISTRATION_LINK_TTL_S = 30 * 60;

export interface InviteDeps {
  links: RegistrationLinks;
  memberships: MembershipRepository;
  users: Pick<UserRepository, 'get'>;
  events: FlowEvents;
  sendMail(mail: OutgoingMail): Promise<unknown>;
  logger: Logger;
  authUrl: string;
  now(): number;
  /** The app's brand and its tenant's text of the registration mail. */
  brands?: Brands;
}

/** What send-activation asks for, checked by mgmt against the application (Users.CreateActivationLink). */
export type InviteRequest = Omit<Invitation, 'flowId' | 'locale' | 'createdAt' | 'expiresAt'> & {
  expiresInS: number;
  clientIp: string;
};

export interface InviteResult {
  flowId: string;
  expiresAt: number;
  sent: boolean;
}

/** The alias is another user's in this app (aliases are unique per application). */
export class AliasTakenError extends Error {
  constructor() {
    super('the alias belongs to another user of the application');
    this.name = 'AliasTakenError';
  }
}

/** The registration page a link opens. */
export const registrationUrl = (authUrl: string, token: string) =>
  new URL(`/register/${token}`, authUrl).toString();

/**
 * Creates a registration link and mails it: the invitation is stored under the link's HMAC, the mail carries
 * the raw token, and custodian_registration_started opens the registration's activity record (flowType
 * enrollment). A link whose mail could not be sent is revoked at once: nobody can ever open it.
 */
export async function invite(deps: InviteDeps, req: InviteRequest): Promise<InviteResult> {
  if (req.alias) {
    const holders = await deps.memberships.findByAlias(req.tenantId, req.alias, req.appId);
    // The same person may be invited again with their alias; anyone else holding it refuses the invitation.
    for (const holder of holders) {
      const user = await deps.users.get(holder.userId);
      if (user?.email !== req.email) throw new AliasTakenError();
    }
  }
  const createdAt = deps.now();
  const ttlS = req.expiresInS > 0 ? req.expiresInS : DEFAULT_REGISTRATION_LINK_TTL_S;
  const { expiresInS: _, clientIp, ...rest } = req;
  const invitation: Invitation = {
    ...rest,
    flowId: newFlowId(createdAt),
    locale: 'en',
    createdAt,
    expiresAt: createdAt + ttlS * 1000,
  };
  const token = await deps.links.create(invitation);
  const minutes = Math.max(1, Math.round(ttlS / 60));
  const values = {
    email: req.email,
    link: registrationUrl(deps.authUrl, token),
    expiresInMinutes: String(minutes),
  };
  let sent = true;
  try {
    const app = { tenantId: req.tenantId, appId: req.appId, appName: req.appName };
    await deps.sendMail(
      await brandedMail(deps, app, 'registration-link', invitation.locale, req.email, values),
    );
  } catch (err) {
    // Logged without the message: it carries the link.
    deps.logger.warn({ err, flowId: invitation.flowId }, 'registration mail not sent');
    await deps.links.revoke(token);
    sent = false;
  }
  await record(deps, invitation, clientIp, sent);
  return { flowId: invitation.flowId, expiresAt: invitation.expiresAt, sent };
}

async function record(deps: InviteDeps, inv: Invitation, clientIp: string, sent: boolean): Promise<void> {
  try {
    await deps.events.record({
      flowId: inv.flowId,
      tenantId: inv.tenantId,
      appId: inv.appId,
      action: 'custodian_registration_started',
      clientIp: isIP(clientIp) ? clientIp : '0.0.0.0',
      flowType: 'enrollment',
      status: sent ? 'enrollment' : 'failure',
      ...(sent ? {} : { failureReason: 'the registration mail could not be sent' }),
    });
  } catch (err) {
    deps.logger.error({ err, flowId: inv.flowId }, 'flow event refused');
  }
}
