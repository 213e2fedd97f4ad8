import { hasPrompt } from '../../authorize/check-prompt';
import { type FlowCheck, firstUnmetOf } from '../../flow/checks';
import type { Flow } from '../../flow/flow';
import type { SignedIn } from '../../session/browser-session';
import type { SignInRequest } from '../../signin/request';
import { needsPhone } from '../../steps/phone-number/routes';

/**
 * What a sign-in still needs before it can finish, in the spirit of node-oidc-provider's interaction policy:
 * an ordered list of named checks, each asking "is this still to be done for this flow?". GET
 * /flow/:id/continue (flow-pages.ts) shows the page of the first unmet one, and finishes the sign-in (a
 * redirect to the RP, CIBA's grant, or the phone's hand-over to its desktop) when none is left.
 *
 * | check             | unmet when                                             | page                        |
 * |-------------------|--------------------------------------------------------|-----------------------------|
 * | proven            | nobody is proven yet (email code, magic link, passkey, QR) | back to /flow/:id        |
 * | allowed           | a rule blocked the proven person (device, country, bound_to) | the flow ends         |
 * | phone-verified    | acr ts.svc.iac.phone_number asks for a phone not yet verified | /flow/:id/phone      |
 * | passkey-offered   | the passkey offer is still open                         | the passkey offer page      |
 * | consented         | consent is due (new scopes, transaction, prompt consent) or it is CIBA | the consent page |
 */
export const SIGN_IN_CHECKS = [
  { name: 'proven', unmet: (flow: Flow) => !flow.proof },
  { name: 'allowed', unmet: (flow: Flow) => flow.step === 'blocked' },
  { name: 'phone-verified', unmet: (flow: Flow) => needsPhone(flow) },
  { name: 'passkey-offered', unmet: (flow: Flow) => flow.step === 'passkey_offer' },
  // A CIBA request was started elsewhere: the person always approves (or denies) it explicitly.
  { name: 'consented', unmet: (flow: Flow) => flow.step === 'consent' || Boolean(flow.ciba) },
] as const satisfies readonly FlowCheck<Flow>[];

export type SignInCheck = (typeof SIGN_IN_CHECKS)[number]['name'];

/** The first check the flow does not meet yet; undefined: the sign-in can finish. */
export function firstUnmet(flow: Flow): SignInCheck | undefined {
  return firstUnmetOf(SIGN_IN_CHECKS, flow);
}

/**
 * Why a live single sign-on session may not prove a new flow: a fresh sign-in is required (OIDC Core 3.1.2.1).
 * Checked before the session is used (start.ts); the flow then shows its sign-in page, or answers
 * login_required for prompt none (prompt.ts). The request's other reasons (acr_values ts.svc.iac.email, a
 * login_hint naming someone else) are proveBySession's.
 *
 * | check        | required when                                                        |
 * |--------------|----------------------------------------------------------------------|
 * | prompt-login | prompt contains login                                                |
 * | max-age      | max_age is 0, or more than max_age seconds passed since the auth_time |
 */
export const LOGIN_REQUIRED_CHECKS = [
  { name: 'prompt-login', requires: (request: SignInRequest) => hasPrompt(request, 'login') },
  {
    name: 'max-age',
    requires: (request: SignInRequest, signedIn: SignedIn, now: number) =>
      request.maxAge !== undefined &&
      (request.maxAge === 0 || now - signedIn.authTime > request.maxAge * 1000),
  },
] as const;

export type LoginRequiredCheck = (typeof LOGIN_REQUIRED_CHECKS)[number]['name'];

/** The first reason this session cannot prove the request; undefined: single sign-on may be used. */
export function loginRequiredBy(
  request: SignInRequest,
  signedIn: SignedIn,
  now: number,
): LoginRequiredCheck | undefined {
  return LOGIN_REQUIRED_CHECKS.find((check) => check.requires(request, signedIn, now))?.name;
}
