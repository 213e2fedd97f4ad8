import { hasPrompt } from '../../authorize/check-prompt';
import { type Flow, flowPath } from '../../flow/flow';
import { CONSENT_SCOPES, type ConsentScope, type ConsentView } from '../../pages';

const text = (v: unknown) => (typeof v === 'string' ? v : String(v ?? ''));

/**
 * The consent page's view model: the scopes to agree to (less those the person already granted this app,
 * unless prompt=consent asks again), a transaction's or an approval's details, what the title asks, and
 * **Not you?** when single sign-on recognised the person.
 */
export function consentView(flow: Flow, csrf: string, granted: readonly string[] = []): ConsentView {
  const { claims, scope, customMessage } = flow.request;
  const askAgain = hasPrompt(flow.request, 'consent');
  const scopes = scope.filter(
    (s): s is ConsentScope =>
      (CONSENT_SCOPES as readonly string[]).includes(s) && (askAgain || !granted.includes(s)),
  );
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
    action: `${flowPath(flow)}/consent`,
    email: flow.email,
    scopes,
    ask: psd2
      ? { payee: text(psd2.payee) }
      : approval
        ? 'approval'
        : scopes.length > 0
          ? 'scopes'
          : undefined,
    ...(flow.proof?.bySession ? { notYouAction: `${flowPath(flow)}/select-account` } : {}),
    customMessage,
    // A CIBA request's message is its binding_message: what the person compares with the other screen.
    bindingMessage: Boolean(flow.ciba && customMessage),
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
