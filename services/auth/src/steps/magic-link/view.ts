import { type Flow, flowPath } from '../../flow/flow';
import { backToApp } from '../../flow/flow-guard';
import type { MagicLinkConfirmView, MagicLinkSentView } from '../../pages';

/** The magic link's pages: sent (the tab that waits) and confirm (where the link is opened). */
export function linkSentView(flow: Flow, issuer: string): MagicLinkSentView {
  return {
    email: flow.email ?? '',
    statusUrl: `${flowPath(flow)}/status`,
    continueUrl: `${flowPath(flow)}/continue`,
    expiresAt: flow.expiresAt,
    matchCode: flow.numberMatch?.code,
    // Once the sign-in expired the tab says so; the way forward is back to the app (a plain link, still valid).
    back: backToApp(issuer, flow, 'flowExpired'),
  };
}

export function linkConfirmView(flow: Flow, action: string, csrf: string): MagicLinkConfirmView {
  return { appName: flow.appName, email: flow.email ?? '', action, csrf };
}
