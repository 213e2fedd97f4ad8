import { GrpcStatus, MgmtError, isGrpcStatus } from '@sesame/platform';
import { type Emit, adminActivity } from '../../events/admin-events';
import { type GrantRevocationPeer, type UsersPeer, peerUnavailable, revokeUserGrants } from '../../peers';

/**
 * Support's actions on a person's access to the tenant (issue 38), as the console's person page, the admin API
 * and the CLI do them. Each answers 404 user_not_found for a user who is not a person of the tenant, and
 * publishes its admin event as the caller once auth has done its part.
 */
type Deps = { users: Pick<UsersPeer, 'signOutEverywhere' | 'setUserDisabled'>; grants: GrantRevocationPeer };

const notFound = () => new MgmtError(404, 'user_not_found', 'no such user in this tenant');

async function askAuth<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (isGrpcStatus(err, GrpcStatus.NOT_FOUND)) throw notFound();
    throw peerUnavailable(err, 'the user service');
  }
}

export interface SignedOut {
  endedSessions: number;
  /** client_ids sent a back-channel logout token. */
  notifiedApps: string[];
}

/** Ends the person's Sesame sessions (auth sends the apps' back-channel logouts) and their refresh tokens. */
async function endEverything(deps: Deps, tenantId: string, userId: string): Promise<SignedOut> {
  const out = await askAuth(() => deps.users.signOutEverywhere({ tenantId, userId }));
  // Every family of the tenant started until now stops refreshing, and the access tokens issued from them stop
  // answering /userinfo and introspection (token's user markers).
  await revokeUserGrants(deps.grants, { tenantId, userId });
  return { endedSessions: out.endedSessions, notifiedApps: out.notifiedClientIds };
}

/**
 * Sign out everywhere: every signed-in session of the person in the tenant ends, their apps get back-channel
 * logout tokens, and their refresh and access tokens of the tenant stop working. Publishes
 * administrator_sign_out_user_everywhere {userId, endedSessions, notifiedApps}.
 */
export async function signOutEverywhere(
  deps: Deps,
  target: { tenantId: string; userId: string },
  emit: Emit,
): Promise<SignedOut> {
  const out = await endEverything(deps, target.tenantId, target.userId);
  await emit(target.tenantId, adminActivity.signOutUserEverywhere, { userId: target.userId, ...out });
  return out;
}

/**
 * Disable account: the person cannot sign in to any app of the tenant from now on (auth refuses with
 * access_denied), and whatever they hold ends at once (as sign out everywhere). Enable account lets them sign
 * in again; nothing they held comes back. Publishes administrator_disable_user {userId, endedSessions} or
 * administrator_enable_user {userId}. Returns when auth recorded it (epoch ms).
 */
export async function setAccountDisabled(
  deps: Deps,
  target: { tenantId: string; userId: string; disabled: boolean },
  emit: Emit,
): Promise<{ changedAt: number; endedSessions?: number }> {
  const { tenantId, userId, disabled } = target;
  const { changedAt } = await askAuth(() => deps.users.setUserDisabled({ tenantId, userId, disabled }));
  if (!disabled) {
    await emit(tenantId, adminActivity.enableUser, { userId });
    return { changedAt };
  }
  const { endedSessions } = await endEverything(deps, tenantId, userId);
  await emit(tenantId, adminActivity.disableUser, { userId, endedSessions });
  return { changedAt, endedSessions };
}
