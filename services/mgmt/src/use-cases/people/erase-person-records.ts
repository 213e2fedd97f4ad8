import { MgmtError } from '@sesame/platform';
import { users } from '@sesame/proto';
import type { SupportPort } from '../../support/port';

/**
 * A person removed from the tenant leaves no sign-in records behind (issue 38): the records of their user ID,
 * and those of every flow their address was typed in, before the account existed or while signed out. Without
 * a support look-up configured (the activity log unreachable by design) there is nothing to erase here.
 */

/** The person's address (lower-case) as the tenant knows it, read before the removal; undefined if unknown. */
export async function personAddress(
  support: SupportPort | undefined,
  request: users.RemoveUserRequest,
): Promise<string | undefined> {
  if (!support) return undefined;
  try {
    if (request.identifierType === users.UserIdentifierType.USER_IDENTIFIER_TYPE_USER_ID) {
      return (
        (await support.userDetail(request.tenantId, request.identifier))?.email.toLowerCase() || undefined
      );
    }
    const found = (
      await support.findUsers(request.tenantId, request.identifier, request.appId || undefined)
    ).filter((u) => u.matchedBy === 'alias');
    return found.length === 1 ? found[0]!.email.toLowerCase() || undefined : undefined;
  } catch {
    // The removal itself decides whether the person exists; their records are still erased by user ID.
    return undefined;
  }
}

/** Erases the removed person's records; 503 naming the user ID when the activity log cannot be reached. */
export async function erasePersonRecords(
  support: SupportPort | undefined,
  tenantId: string,
  userId: string,
  address: string | undefined,
): Promise<void> {
  if (!support) return;
  try {
    await support.eraseFlows(tenantId, { userId, ...(address ? { attemptedEmail: address } : {}) });
  } catch (err) {
    if (!(err instanceof MgmtError) || err.status !== 503) throw err;
    throw new MgmtError(
      503,
      err.code,
      `the user ${userId} was removed, but their sign-in records could not be erased yet: erase the attempts of their address (POST …/attempts/erase) when the activity log is back`,
    );
  }
}
