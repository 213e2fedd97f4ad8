import type { Flow } from '../../flow/flow';
import type {
  ConsentScope,
  ConsentView,
  EmailCodeView,
  IdentifyView,
  MagicLinkConfirmView,
  MagicLinkSentView,
  PasskeyOfferView,
} from '../../pages';
import { CONSENT_SCOPES } from '../../pages';
import type { SignInRequest } from '../../signin/request';

/** View models of the hosted pages: plain data from the flow (pages/views.ts says what each page shows). */
type SignInFlow = Flow<SignInRequest>;
const base = (flow: SignInFlow) => `/flow/${flow.id}`;

export function identifyView(flow: SignInFlow, csrf: string, error?: IdentifyView['error']): IdentifyView {
  return {
    appName: flow.appName,
    email: flow.email ?? '',
    csrf,
    action: `${base(flow)}/email`,
    error,
    passkey: {
      optionsUrl: `${base(flow)}/passkey/sign-in-options`,
      verifyUrl: `${base(flow)}/passkey/sign-in`,
    },
    // Desktop to mobile is offered to the browser that started the flow, never on the phone or for CIBA.
    ...(flow.ama || flow.ciba ? {} : { mobileAction: `${base(flow)}/mobile` }),
  };
}

export function passkeyOfferView(flow: SignInFlow, csrf: string): PasskeyOfferView {
  return {
    appName: flow.appName,
    email: flow.email ?? '',
    csrf,
    optionsUrl: `${base(flow)}/passkey/create-options`,
    verifyUrl: `${base(flow)}/passkey/create`,
    notNowAction: `${base(flow)}/passkey/not-now`,
  };
}

export function emailCodeView(
  flow: SignInFlow,
  csrf: string,
  extra: Pick<EmailCodeView, 'error' | 'attemptsLeft' | 'resent'> = {},
): EmailCodeView {
  return {
    email: flow.email ?? '',
    csrf,
    verifyAction: `${base(flow)}/code`,
    magicLinkAction: `${base(flow)}/magic-link`,
    resendAction: `${base(flow)}/resend`,
    changeEmailUrl: `${base(flow)}/change-email`,
    ...extra,
  };
}

export function linkSentView(flow: SignInFlow): MagicLinkSentView {
  return {
    email: flow.email ?? '',
    statusUrl: `${base(flow)}/status`,
    continueUrl: `${base(flow)}/continue`,
    expiresAt: flow.expiresAt,
  };
}

const text = (v: unknown) => (typeof v === 'string' ? v : String(v ?? ''));

export function consentView(flow: SignInFlow, csrf: string): ConsentView {
  const { claims, scope, customMessage } = flow.request;
  const psd2 = claims?.psd2Transaction?.display_data;
  const approval = claims?.approval?.display_data as
    | {
        main_attribute?: { label: string; value: string };
        attributes: ConsentView['approval'] extends infer A
          ? A extends { attributes: infer X }
            ? X
            : never
          : never;
      }
    | undefined;
  return {
    appName: flow.appName,
    csrf,
    action: `${base(flow)}/consent`,
    email: flow.email,
    scopes: scope.filter((s): s is ConsentScope => (CONSENT_SCOPES as readonly string[]).includes(s)),
    customMessage,
    psd2: psd2
      ? {
          payee: text(psd2.payee),
          paymentAmount: text(psd2.payment_amount),
          paymentMethod: text(psd2.payment_method),
        }
      : undefined,
    approval: approval
      ? { mainAttribute: approval.main_attribute, attributes: approval.attributes }
      : undefined,
  };
}

export function linkConfirmView(flow: SignInFlow, action: string, csrf: string): MagicLinkConfirmView {
  return { appName: flow.appName, email: flow.email ?? '', action, csrf };
}
