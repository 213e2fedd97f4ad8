import type { Response, Router } from 'express';
import { hasPrompt } from '../../authorize/check-prompt';
import { type Flow, flowPath } from '../../flow/flow';
import { withFlow } from '../../flow/flow-guard';
import type { BrowserSession } from '../../session/browser-session';
import { proveBySession } from '../../signin/prove';
import type { SignInRequest } from '../../signin/request';
import { form } from '../../web/body-parsers';
import type { HostedDeps } from '../../web/deps';
import { sendPage } from '../../web/respond';
import { loginRequiredBy } from './checks';
import { startSignIn } from './start';

/**
 * prompt select_account (OIDC Core 3.1.2.1) with a live single sign-on session that could prove the flow: the
 * "Not you?" choice instead of signing in silently. The flow starts as one on its sign-in page (nobody proven
 * yet), and the page offers to continue as the signed-in person or to use another account (the sign-in page).
 * Answers false, sending nothing, when there is no such session (the flow then starts as any other).
 */
export async function offerAccountChoice(
  deps: HostedDeps,
  res: Response,
  flow: Flow<SignInRequest>,
  session: BrowserSession,
): Promise<boolean> {
  const { signedIn } = session;
  if (!hasPrompt(flow.request, 'select_account') || !signedIn || signedIn.tenantId !== flow.tenantId)
    return false;
  if (loginRequiredBy(flow.request, signedIn, deps.now())) return false;
  const user = await deps.users.users.get(signedIn.userId);
  if (!user) return false;
  await startSignIn(deps, flow);
  sendPage(deps, res, 'select-account', flow.locale, {
    appName: flow.appName,
    email: user.email ?? user.phoneNumber ?? '',
    csrf: session.csrf,
    action: `${flowPath(flow)}/select-account`,
  });
  return true;
}

/**
 * POST /flow/:id/select-account: `continue` signs in by the session (as single sign-on does), `other` shows the
 * sign-in page; `other` after single sign-on (the consent page's **Not you?**) first forgets that proof.
 */
export function mountSelectAccount(router: Router, deps: HostedDeps): void {
  router.post(
    '/flow/:flowId/select-account',
    form,
    withFlow(
      deps,
      async (req, res, { flow, session }) => {
        const choice = (req.body as Record<string, unknown>).choice;
        const signedIn = session.signedIn;
        const usable =
          choice === 'continue' &&
          !flow.proof &&
          signedIn !== undefined &&
          !loginRequiredBy(flow.request as SignInRequest, signedIn, deps.now());
        if (usable && (await proveBySession(deps, flow as Flow<SignInRequest>, signedIn)))
          return res.redirect(303, `${flowPath(flow)}/continue`);
        // "Not you?" on a page after single sign-on: forget who the session proved; the sign-in starts afresh.
        if (choice === 'other' && flow.proof?.bySession) {
          const { proof: _proof, userId: _userId, email: _email, ...rest } = flow;
          await deps.flows.save({ ...rest, step: 'identify' });
        }
        res.redirect(303, flowPath(flow));
      },
      { csrf: true },
    ),
  );
}
