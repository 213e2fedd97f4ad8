import { type Flow, flowPath } from '../../flow/flow';
import type { MagicLinkConfirmView, MagicLinkSentView } from '../../pages';

/** The magic link's pages: sent (the tab that waits) and confirm (where the link is opened). */
export function linkSentView(flow: Flow): MagicLinkSentView {
  return {
    email: flow.email ?? '',
    statusUrl: `${flowPath(flow)}/status`,
    continueUrl: `${flowPath(flow)}/continue`,
    expiresAt: flow.expiresAt,
    matchCode: flow.numberMatch?.code,
  };
}

export function linkConfirmView(flow: Flow, action: string, csrf: string): MagicLinkConfirmView {
  return { appName: flow.appName, email: flow.email ?? '', action, csrf };
}
