import type { Response } from 'express';
import type { Flow } from '../../flow/flow';
import type { SignedIn } from '../../session/browser-session';
import { errorRedirect } from '../../signin/prove';
import type { SignInRequest } from '../../signin/request';
import type { HostedDeps } from '../../web/deps';
import { redirectToRp } from '../../web/respond';
import { type SignInCheck, firstUnmet } from './checks';
import { startSignIn } from './start';

/** The OIDC Core 3.1.2.6 error for prompt none when this check is still unmet (undefined: no page is needed). */
const SILENT_ERRORS: Readonly<Record<Exclude<SignInCheck, 'allowed'>, [string, string]>> = {
  proven: ['login_required', 'prompt none: nobody is signed in who may be used for this request'],
  'phone-verified': ['interaction_required', 'prompt none: the phone number must be verified on a page'],
  'passkey-offered': ['interaction_required', 'prompt none: the sign-in needs a page'],
  consented: ['consent_required', 'prompt none: the user has not consented to this request'],
};

/**
 * prompt=none (OIDC Core 3.1.2.1): no page is shown. A live single sign-on session that may prove the flow
 * (no prompt-login or max_age reason against it, checks.ts) and needs no consent or other page finishes at
 * once, as any single sign-on does (GET /flow/:id/continue redirects with a code). Otherwise the flow is
 * dropped and the RP gets login_required, consent_required or interaction_required (Core 3.1.2.6). A flow
 * that a rule ends (a blocked device or location) ends as it would with pages: with its own error.
 */
export async function answerSilently(
  deps: HostedDeps,
  res: Response,
  flow: Flow<SignInRequest>,
  signedIn: SignedIn | undefined,
): Promise<void> {
  const started = await startSignIn(deps, flow, signedIn);
  const now = started === 'continue' ? await deps.flows.get(flow.id) : undefined;
  const unmet = now ? firstUnmet(now) : 'proven';
  if (unmet === undefined || unmet === 'allowed') return res.redirect(303, `/flow/${flow.id}/continue`);
  await deps.flows.discard(flow);
  const [error, description] = SILENT_ERRORS[unmet];
  redirectToRp(res, errorRedirect(deps, flow.request, error, description));
}
