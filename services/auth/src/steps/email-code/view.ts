import type { SendThrottle } from '../../email/send-throttle';
import { type Flow, flowPath } from '../../flow/flow';
import type { EmailCodeView } from '../../pages';

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

/** The resend timer: how long the send limits make this person wait for the next code (0: no wait). */
export async function resendWaitSeconds(
  deps: { sendThrottle: Pick<SendThrottle, 'waitMs'> },
  flow: Flow,
  ip: string,
): Promise<number> {
  if (!flow.email) return 0;
  return Math.ceil((await deps.sendThrottle.waitMs(flow.email, ip)) / 1000);
}
