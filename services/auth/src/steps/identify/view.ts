import { isHandheld } from '../../devices/handheld';
import { type Flow, flowPath } from '../../flow/flow';
import type { IdentifyView } from '../../pages';

/** The identify page's view model: plain data from the flow (pages/views.ts says what each page shows). */
export function identifyView(
  flow: Flow,
  csrf: string,
  error?: IdentifyView['error'],
  /** The request's `Sec-CH-UA-Mobile` client hint (`?1` a phone or tablet), when it sent one. */
  mobileHint?: string,
): IdentifyView {
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
    // Desktop to mobile is offered to the browser that started the flow, never on the phone or for CIBA; on a
    // phone or tablet only as a small "Use another device" link.
    ...(flow.ama || flow.ciba ? {} : { mobileAction: `${flowPath(flow)}/mobile` }),
    ...(isHandheld(flow.originatingDevice?.facts, mobileHint) ? { mobileIsSecondary: true } : {}),
  };
}
