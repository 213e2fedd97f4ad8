import type { FlowAction, FlowEventInput } from '@sesame/flow-events';
import type { KeyValueStore } from '@sesame/kv';
import type { Request, RequestHandler, Response } from 'express';
import type { RegistrationFlow } from '../../flow/flow';
import { type FlowAccess, type GuardedHandler, guardFlow } from '../../flow/flow-guard';
import type { RegistrationFlows } from '../../flow/flow-store';
import type { HostedDeps } from '../../web/deps';
import { sendPage } from '../../web/respond';
import type { RegistrationLinks } from './links';

export type { RegistrationFlow } from '../../flow/flow';
export { RegistrationFlows } from '../../flow/flow-store';

export interface RegistrationDeps extends HostedDeps {
  registrationLinks: RegistrationLinks;
  /** Where registration flows live (auth's KV store). */
  kv: KeyValueStore;
}

/** Records one step of a registration: flowType enrollment (spec 2.4), alias once it is known. */
export function recordRegistration(
  deps: HostedDeps,
  flow: RegistrationFlow,
  action: FlowAction,
  facts: Partial<FlowEventInput> = {},
): Promise<void> {
  return deps.record(flow, action, { flowType: 'enrollment', ...facts });
}

export type RegistrationHandler = GuardedHandler<RegistrationFlow>;

/** A registration's desktop routes (`/registration/:registrationId/…`): the browser that took the link. */
const desktop = (flows: RegistrationFlows): FlowAccess<RegistrationFlow> => ({
  param: 'registrationId',
  load: (id) => flows.get(id),
  owner: (flow) => flow.sessionKey,
});

/** Loads the registration named in the path for the browser that took the link; POSTs need its CSRF token. */
export function withRegistration(
  deps: HostedDeps,
  flows: RegistrationFlows,
  handler: RegistrationHandler,
  opts: { csrf: boolean },
): RequestHandler {
  return guardFlow(deps, desktop(flows), handler, opts);
}

/** The same for the phone's side of "Use my phone": only the phone that opened the registration's QR. */
export function withRegistrationPhone(
  deps: HostedDeps,
  flows: RegistrationFlows,
  handler: (req: Request, res: Response, flow: RegistrationFlow) => Promise<void>,
  opts: { csrf: boolean },
): RequestHandler {
  const phone: FlowAccess<RegistrationFlow> = {
    ...desktop(flows),
    owner: (flow) => flow.qr?.phoneSessionKey,
    noStore: true,
  };
  return guardFlow(deps, phone, (req, res, { flow }) => handler(req, res, flow), opts);
}

/**
 * The completion page: the invitation's text and link, and its secondaryCompletionMessage only where the
 * registration finished on the phone of a desktop-to-mobile flow (`phoneSide`).
 */
export function sendRegistrationComplete(deps: HostedDeps, res: Response, flow: RegistrationFlow): void {
  const inv = flow.invitation;
  sendPage(deps, res, 'register-complete', flow.locale, {
    appName: inv.appName,
    // The phone of a desktop-to-mobile registration is done: the desktop tab goes back to the app, not it.
    ...(flow.phoneSide ? { onPhone: true } : { backUrl: inv.registrationRedirectUri }),
    ...(inv.completionText ? { completionText: inv.completionText } : {}),
    ...(inv.completionLink
      ? { link: { url: inv.completionLink.redirectUri, label: inv.completionLink.label } }
      : {}),
    ...(flow.phoneSide && inv.secondaryCompletionMessage
      ? { secondaryMessage: inv.secondaryCompletionMessage }
      : {}),
  });
}
