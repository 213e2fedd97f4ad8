import { type Flow, flowPath } from '../../flow/flow';
import type { PasskeyOfferView } from '../../pages';

/** The passkey offer's view model (after an email proof on a device that can hold a passkey). */
export function passkeyOfferView(flow: Flow, csrf: string): PasskeyOfferView {
  return {
    appName: flow.appName,
    email: flow.email ?? '',
    csrf,
    optionsUrl: `${flowPath(flow)}/passkey/create-options`,
    verifyUrl: `${flowPath(flow)}/passkey/create`,
    notNowAction: `${flowPath(flow)}/passkey/not-now`,
  };
}
