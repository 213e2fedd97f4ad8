import type { InsteadOfCode } from '../../steps/email-code/routes';
import { desktopLacksPasskey, switchToMobile } from '../../steps/qr/desktop';
import type { HostedDeps } from '../../web/deps';

/**
 * The sign-in's choice after the typed address: the person's passkeys are elsewhere (their phone), so the QR
 * code instead of an email code (issue 9; steps/qr/desktop.ts desktopLacksPasskey says when).
 */
export const qrInsteadOfCode =
  (deps: HostedDeps): InsteadOfCode =>
  async (req, res, ctx, email) => {
    if (!(await desktopLacksPasskey(deps, ctx.flow, email))) return false;
    const canCreatePasskey = (req.body as Record<string, unknown>).passkeyCapable === '1';
    await switchToMobile(deps, { ...ctx.flow, email, canCreatePasskey });
    res.redirect(303, `/flow/${ctx.flow.id}`);
    return true;
  };
