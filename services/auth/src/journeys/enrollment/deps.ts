import type { directory } from '@sesame/proto';
import type { Request, RequestHandler, Response } from 'express';
import type { EnrollmentFlow } from '../../flow/flow';
import { type FlowAccess, guardFlow } from '../../flow/flow-guard';
import type { EnrollmentFlows } from '../../flow/flow-store';
import type { MobileLinks } from '../../flow/qr-links';
import type { HostedDeps } from '../../web/deps';
import type { EnrollmentLinks } from './links';

/** What the enrollment pages need beyond the hosted sign-in's dependencies. */
export interface EnrollmentDeps extends HostedDeps {
  enrollmentLinks: EnrollmentLinks;
  enrollmentFlows: EnrollmentFlows;
  /** The QR links of "Add a phone instead" (their own keyspace: a sign-in's /m/ path never takes one). */
  enrollmentMobileLinks: MobileLinks;
  getClient(clientId: string): Promise<directory.Client | undefined>;
}

type Handler = (req: Request, res: Response, flow: EnrollmentFlow) => Promise<void>;

/** An enrollment's routes (`/enroll/flow/:flowId/…`): only the browser that opened the link drives them. */
const desktop = (deps: EnrollmentDeps): FlowAccess<EnrollmentFlow> => ({
  param: 'flowId',
  load: (id) => deps.enrollmentFlows.get(id),
  owner: (flow) => flow.sessionKey,
  gone: 'enrollLinkInvalid',
});

/** The phone's routes of "Add a phone instead": only the phone that opened the QR, while it is not over. */
const phone = (deps: EnrollmentDeps): FlowAccess<EnrollmentFlow> => ({
  ...desktop(deps),
  owner: (flow) => flow.qr?.phoneSessionKey,
  open: (flow) => !flow.qr?.done && !flow.qr?.ended,
  noStore: true,
});

/** A handler of the enrollment's routes behind `access`'s checks (guardFlow), given the enrollment. */
const guardedBy =
  (access: (deps: EnrollmentDeps) => FlowAccess<EnrollmentFlow>) =>
  (deps: EnrollmentDeps, handler: Handler, opts: { csrf: boolean }): RequestHandler =>
    guardFlow(deps, access(deps), (req, res, { flow }) => handler(req, res, flow), opts);

/**
 * Loads the enrollment named in the path and refuses what may not drive it: an unknown or finished
 * enrollment, another browser than the one that opened the link, and on POST a missing or wrong CSRF token.
 */
export const withEnrollment = guardedBy(desktop);

/** The same for the phone's side: only the phone that opened this enrollment's QR (its own browser session). */
export const withEnrollmentPhone = guardedBy(phone);

/** Records a flow event of an enrollment with flowType enrollment. */
export const recordEnrollment = (
  deps: EnrollmentDeps,
  flow: EnrollmentFlow,
  action: Parameters<HostedDeps['record']>[1],
  facts: Parameters<HostedDeps['record']>[2] = {},
) => deps.record(flow, action, { flowType: 'enrollment', ...facts });

/** The RP's redirect_uri with the given parameters (state when the RP sent one). */
export function enrollmentRedirect(flow: EnrollmentFlow, params: Record<string, string> = {}): string {
  const url = new URL(flow.request.redirectUri);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  if (flow.request.state !== undefined) url.searchParams.set('state', flow.request.state);
  return url.toString();
}
