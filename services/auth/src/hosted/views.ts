import type { Flow } from '../flow/flow';
import type { SignInRequest } from '../signin/request';

/** View models of the hosted pages: plain data from the flow; templates only show them. */
type SignInFlow = Flow<SignInRequest>;
const base = (flow: SignInFlow) => `/flow/${flow.id}`;

export function identifyView(flow: SignInFlow, csrf: string, error?: string) {
  return { appName: flow.appName, email: flow.email ?? '', csrf, action: `${base(flow)}/email`, error };
}

export function emailCodeView(
  flow: SignInFlow,
  csrf: string,
  extra: { error?: string; attemptsLeft?: number } = {},
) {
  return {
    email: flow.email ?? '',
    csrf,
    action: `${base(flow)}/code`,
    magicLinkAction: `${base(flow)}/magic-link`,
    resendAction: `${base(flow)}/resend`,
    restartAction: `${base(flow)}/restart`,
    ...extra,
  };
}

export function linkSentView(flow: SignInFlow) {
  return {
    email: flow.email ?? '',
    statusUrl: `${base(flow)}/status`,
    continueUrl: `${base(flow)}/continue`,
  };
}

export function consentView(flow: SignInFlow, csrf: string) {
  const { claims, scope, customMessage } = flow.request;
  return {
    appName: flow.appName,
    csrf,
    action: `${base(flow)}/consent`,
    scopes: scope.filter((s) => s !== 'openid'),
    customMessage,
    psd2: claims?.psd2Transaction?.display_data,
    approval: claims?.approval?.display_data,
  };
}

export function linkConfirmView(flow: SignInFlow, action: string, csrf: string) {
  return { appName: flow.appName, email: flow.email ?? '', action, csrf };
}
