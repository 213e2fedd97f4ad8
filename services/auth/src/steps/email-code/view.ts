import { mailRequester } from '../../email/send-requester';
import type { SendThrottle } from '../../email/send-throttle';
import { type Flow, flowPath } from '../../flow/flow';
import type { EmailCodeView } from '../../pages';
import type { BrowserSession } from '../../session/browser-session';
import type { UserStore } from '../../users/users.repository';

/** The email code page's view model. */
export function emailCodeView(
  flow: Flow,
  csrf: string,
  extra: Pick<EmailCodeView, 'error' | 'attemptsLeft' | 'resent' | 'resendWaitSeconds'> = {},
): EmailCodeView {
  return {
    email: flow.email ?? '',
    csrf,
    verifyAction: `${flowPath(flow)}/code`,
    magicLinkAction: `${flowPath(flow)}/magic-link`,
    resendAction: `${flowPath(flow)}/resend`,
    changeEmailUrl: `${flowPath(flow)}/change-email`,
    ...extra,
  };
}

/**
 * The resend timer: how long the send limits make this browser wait for the next code (0: no wait); a
 * session signed in as the address's owner has its own limits (email/send-requester.ts).
 */
export async function resendWaitSeconds(
  deps: { sendThrottle: Pick<SendThrottle, 'waitMs'>; users: Pick<UserStore, 'users'> },
  flow: Flow,
  ip: string,
  session: Pick<BrowserSession, 'signedIn'>,
): Promise<number> {
  if (!flow.email) return 0;
  const requester = await mailRequester(deps, flow.tenantId, session, flow.email);
  return Math.ceil((await deps.sendThrottle.waitMs(flow.email, ip, requester)) / 1000);
}
