import type express from 'express';
import { hasPrompt } from '../../authorize/check-prompt';
import { backToApp } from '../../flow/flow-guard';
import type { FlowContext } from '../../flow/flow-guard';
import { sendErrorPage } from '../../pages';
import { errorRedirect } from '../../signin/prove';
import { endOnPhone } from '../../steps/qr/phone';
import type { HostedDeps } from '../../web/deps';
import { redirectToRp } from '../../web/respond';

/** What the app is told (access_denied) when an administrator disabled the person in the tenant. */
export const DISABLED_DESCRIPTION = 'the account is disabled';

/**
 * A disabled person's sign-in ends (signin/prove.ts blocked it, blockedBy `disabled`): the browser gets a page
 * saying the account is disabled and to contact the app's support, whose "Back to app" link brings the app
 * error=access_denied. prompt=none gets the redirect at once (no page may be shown); a CIBA approval is denied
 * (the app's next poll gets access_denied); a phone's QR sign-in tells its desktop, which ends with the same.
 */
export async function endDisabled(
  deps: HostedDeps,
  res: express.Response,
  flow: FlowContext['flow'],
): Promise<void> {
  if (flow.ciba && deps.ciba) return deps.ciba.deny(res, flow, DISABLED_DESCRIPTION);
  if (flow.ama) {
    return endOnPhone(deps, res, flow, 'refused', {
      error: 'access_denied',
      description: DISABLED_DESCRIPTION,
    });
  }
  await deps.flows.delete(flow.id);
  if (hasPrompt(flow.request, 'none')) {
    return redirectToRp(res, errorRedirect(deps, flow.request, 'access_denied', DISABLED_DESCRIPTION));
  }
  sendErrorPage(
    deps,
    res.req,
    res.set('Cache-Control', 'no-store'),
    403,
    'accountDisabled',
    flow.locale,
    backToApp(deps.issuer, flow, 'accountDisabled'),
  );
}
