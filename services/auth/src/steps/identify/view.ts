import { type Flow, flowPath } from '../../flow/flow';
import type { IdentifyView } from '../../pages';

/** The identify page's view model: plain data from the flow (pages/views.ts says what each page shows). */
export function identifyView(flow: Flow, csrf: string, error?: IdentifyView['error']): IdentifyView {
  return {
    appName: flow.appName,
    email: flow.email ?? '',
    csrf,
    action: `${flowPath(flow)}/email`,
    error,
    passkey: {
      optionsUrl: `${flowPath(flow)}/passkey/sign-in-options`,
      verifyUrl: `${flowPath(flow)}/passkey/sign-in`,
    },
    // Desktop to mobile is offered to the browser that started the flow, never on the phone or for CIBA.
    ...(flow.ama || flow.ciba ? {} : { mobileAction: `${flowPath(flow)}/mobile` }),
  };
}
