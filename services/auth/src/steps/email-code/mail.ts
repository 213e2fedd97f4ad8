import type { Flow } from '../../flow/flow';
import { type MessageVars, translate, translateHtml } from '../../i18n';
import type { SignInRequest } from '../../signin/request';
import type { HostedDeps } from '../../web/deps';

/**
 * Sends the sign-in mail of one kind (`email.code.*` or `email.link.*` in the catalogs) in the flow's locale.
 * Resolves false when delivery failed (logged here, without the message: it carries the code or link).
 */
export async function sendSignInMail(
  deps: HostedDeps,
  flow: Flow<SignInRequest>,
  kind: 'code' | 'link',
  to: string,
  vars: MessageVars,
): Promise<boolean> {
  const all = { appName: flow.appName, ...vars };
  try {
    await deps.sendMail({
      to,
      subject: translate(flow.locale, `email.${kind}.subject`, all),
      text: translate(flow.locale, `email.${kind}.text`, all),
      html: translateHtml(flow.locale, `email.${kind}.html`, all),
    });
    return true;
  } catch (err) {
    deps.logger.warn({ err, flowId: flow.id, kind }, 'sign-in mail not sent');
    return false;
  }
}
