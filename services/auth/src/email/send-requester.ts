import type { UserStore } from '../users/users.repository';
import type { SendRequester } from './send-throttle';

/**
 * Who asks for a sign-in mail to `address` in a flow of `tenantId`: that tenant, and `proven` when this
 * browser's session is signed in, in the same tenant, as the person whose verified address it is. Such a
 * person is never held by what strangers asked for the address (SendThrottle); anyone else is a stranger.
 */
export async function mailRequester(
  deps: { users: Pick<UserStore, 'users'> },
  tenantId: string,
  // The browser session's signed-in part, by shape: email/ sits below session/ in auth's layers.
  session: { signedIn?: { tenantId: string; userId: string } } | undefined,
  address: string,
): Promise<SendRequester> {
  const signedIn = session?.signedIn;
  if (!signedIn || signedIn.tenantId !== tenantId) return { tenant: tenantId };
  const user = await deps.users.users.get(signedIn.userId);
  const proven = user?.emailVerifiedAt !== undefined && user.email?.toLowerCase() === address.toLowerCase();
  return { tenant: tenantId, proven };
}
