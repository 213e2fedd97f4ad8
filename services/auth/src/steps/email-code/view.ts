import { type Flow, flowPath } from '../../flow/flow';
import type { EmailCodeView } from '../../pages';

/** The email code page's view model. */
export function emailCodeView(
  flow: Flow,
  csrf: string,
  extra: Pick<EmailCodeView, 'error' | 'attemptsLeft' | 'resent'> = {},
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
