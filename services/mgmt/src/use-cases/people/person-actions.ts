import { GrpcStatus, MgmtError, isGrpcStatus } from '@sesame/platform';
import { users } from '@sesame/proto';
import { z } from 'zod';
import { type Emit, adminActivity } from '../../events/admin-events';
import { peerUnavailable } from '../../peers';
import type { AdminRouteDeps } from '../deps';
import { requireSupport } from './query';

/**
 * Issue 38's actions on a person, as the console's Users pages and the admin API do them; each publishes its
 * admin event as the caller once the change is made (nothing when nothing changed):
 * - removing a passkey: auth deletes it; the person signs in by email and makes a new one (404 passkey_not_found
 *   for a passkey that is not this tenant's person's);
 * - removing the phone number (404 user_not_found for a person of another tenant; 409 no_phone_number);
 * - adding a person: the registration link (spec 4.5's send-activation) for an address, returning to an app.
 */
export async function removePersonPasskey(
  deps: Pick<AdminRouteDeps, 'support'>,
  target: { tenantId: string; userId: string; credentialId: string },
  emit: Emit,
): Promise<void> {
  const { tenantId, userId, credentialId } = target;
  if (!(await requireSupport(deps.support).removePasskey(tenantId, userId, credentialId))) {
    throw new MgmtError(404, 'passkey_not_found', 'no such passkey of this person in this tenant');
  }
  await emit(tenantId, adminActivity.removeUserPasskey, { userId, credentialId });
}

export async function removePersonPhone(
  deps: Pick<AdminRouteDeps, 'support'>,
  target: { tenantId: string; userId: string },
  emit: Emit,
): Promise<void> {
  const { tenantId, userId } = target;
  const removed = await requireSupport(deps.support).removePhoneNumber(tenantId, userId);
  if (removed === undefined) throw new MgmtError(404, 'user_not_found', 'no such user in this tenant');
  if (!removed) throw new MgmtError(409, 'no_phone_number', 'this person has no phone number');
  await emit(tenantId, adminActivity.removeUserPhoneNumber, { userId });
}

/** Add a person: an address and the application (its id or client id) the registration returns to. */
export const addPersonBody = z
  .object({
    email: z.string().trim().toLowerCase().min(3).max(254).email('must be an email address'),
    app: z.string().trim().min(1, 'choose an application').max(256),
  })
  .strict();
export type AddPersonBody = z.infer<typeof addPersonBody>;

function tooManyMails(err: unknown): MgmtError {
  const details = String((err as { details?: unknown }).details ?? '');
  const refused = new MgmtError(429, 'too_many_requests', 'too many registration mails; retry later');
  refused.headers = { 'Retry-After': /retry after (\d+) s$/.exec(details)?.[1] ?? '60' };
  return refused;
}

export async function addPerson(
  deps: Pick<AdminRouteDeps, 'dir' | 'users'>,
  request: { tenantId: string; clientIp: string } & AddPersonBody,
  emit: Emit,
): Promise<{ email: string; appId: string; sent: boolean; expiresAt: number }> {
  const { tenantId, email } = request;
  const byId = await deps.dir.applications.get(tenantId, request.app);
  const byClient = byId ?? (await deps.dir.applications.findByClientId(request.app));
  const app = byClient?.tenantId === tenantId ? byClient : undefined;
  if (!app) throw new MgmtError(404, 'application_not_found', 'no such application in this tenant');
  if (!app.registrationRedirectUri) {
    throw new MgmtError(
      400,
      'missing_registrationRedirectUri',
      'the application has no registration redirect URI: set registrationRedirectUri in its settings first',
    );
  }
  let answer: users.CreateActivationLinkResponse;
  try {
    answer = await deps.users.createActivationLink(
      users.CreateActivationLinkRequest.fromPartial({
        tenantId,
        appId: app.appId,
        clientId: app.clientId,
        appName: app.name,
        registrationRedirectUri: app.registrationRedirectUri,
        userEmail: email,
        aliasType: users.ActivationAliasType.ACTIVATION_ALIAS_TYPE_NONE,
        expiresInS: app.registrationLinkExpiresIn ?? 0,
        clientIp: request.clientIp,
      }),
    );
  } catch (err) {
    if (isGrpcStatus(err, GrpcStatus.RESOURCE_EXHAUSTED)) throw tooManyMails(err);
    throw peerUnavailable(err, 'the user service');
  }
  const sent = answer.channels.every((c) => c.status === 'sent');
  await emit(tenantId, adminActivity.addPerson, { email, appId: app.appId, flowId: answer.flowId });
  return { email, appId: app.appId, sent, expiresAt: answer.expiresAt };
}
