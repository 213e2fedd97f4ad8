import { brandedMail } from '../../branding/brand-mail';
import type { Flow } from '../../flow/flow';
import type { MessageVars } from '../../i18n';
import type { SignInRequest } from '../../signin/request';
import type { HostedDeps } from '../../web/deps';

/**
 * Sends the sign-in mail of one kind (the code, or the magic link) in the flow's locale, in the app's brand
 * and the tenant's text of that mail (branding/brand-mail.ts). Resolves false when delivery failed (logged
 * here, without the message: it carries the code or link).
 */
export async function sendSignInMail(
  deps: HostedDeps,
  flow: Flow<SignInRequest>,
  kind: 'code' | 'link',
  to: string,
  vars: MessageVars,
): Promise<boolean> {
  const values: Record<string, string> = {
    email: String(vars.email ?? to),
    expiresInMinutes: String(vars.minutes ?? ''),
    ...(kind === 'code' ? { code: String(vars.code) } : { link: String(vars.url) }),
  };
  try {
    const mail = await brandedMail(
      deps,
      flow,
      kind === 'code' ? 'sign-in-code' : 'magic-link',
      flow.locale,
      to,
      values,
    );
    await deps.sendMail(mail);
    return true;
  } catch (err) {
    deps.logger.warn({ err, flowId: flow.id, kind }, 'sign-in mail not sent');
    return false;
  }
}
