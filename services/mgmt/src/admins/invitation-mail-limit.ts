import { type KeyValueStore, SendLimiter } from '@sesame/kv';
import { MgmtError } from '@sesame/platform';

/** At most this many administrator invitation mails go to one address in any 24 hours (every tenant together). */
export const INVITATION_MAILS_PER_ADDRESS_PER_DAY = 10;
const DAY_MS = 86_400_000;

/**
 * The message limit of administrator invitations: the one SendLimiter of libs/kv (a sliding window in the
 * key-value store, Redis in production), per destination address. Keys hold the address's hash only.
 */
export function invitationMailLimiter(kv: KeyValueStore, now: () => number): SendLimiter {
  return new SendLimiter(
    kv,
    'admin_invitation_mail',
    { destination: { limit: INVITATION_MAILS_PER_ADDRESS_PER_DAY, windowMs: DAY_MS } },
    now,
  );
}

/** Reserves one invitation mail to `email`, or throws 429 too_many_requests naming the limit, with Retry-After. */
export async function reserveInvitationMail(limits: SendLimiter | undefined, email: string): Promise<void> {
  if (!limits) return;
  const decision = await limits.reserve({ destination: email });
  if (decision.allowed) return;
  const refused = new MgmtError(
    429,
    'too_many_requests',
    `at most ${INVITATION_MAILS_PER_ADDRESS_PER_DAY} invitation mails per address per day; retry after ${decision.retryAfterS} s`,
  );
  refused.headers['Retry-After'] = String(decision.retryAfterS);
  throw refused;
}
