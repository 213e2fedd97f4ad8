import type { directory } from '@sesame/proto';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Flow } from '../../flow/flow';
import type { SignInRequest } from '../../signin/request';
import type { MobileLinks } from '../../steps/qr/links';
import type { HostedDeps } from '../../web/deps';
import { sendErrorPage } from '../../web/respond';
import type { EnrollmentFlow, EnrollmentFlows } from './flows';
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

/**
 * Loads the enrollment named in the path and refuses what may not drive it: an unknown or finished
 * enrollment, another browser than the one that opened the link, and on POST a missing or wrong CSRF token.
 */
export function withEnrollment(
  deps: EnrollmentDeps,
  handler: Handler,
  opts: { csrf: boolean },
): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const run = async () => {
      const flow = await deps.enrollmentFlows.get(String(req.params.flowId));
      if (!flow) return sendErrorPage(deps, req, res, 410, 'enrollLinkInvalid');
      const session = await deps.sessions.load(req);
      if (!session || session.key !== flow.sessionKey) {
        return sendErrorPage(deps, req, res, 403, 'sessionMismatch', flow.locale);
      }
      if (opts.csrf && !deps.sessions.csrfMatches(session, (req.body as Record<string, unknown>)?.csrf)) {
        return sendErrorPage(deps, req, res, 403, 'csrf', flow.locale);
      }
      await handler(req, res, flow);
    };
    run().catch(next);
  };
}

/**
 * Records a flow event of an enrollment with flowType enrollment. The recorder takes a sign-in flow; an
 * enrollment carries every field it reads (ids, device, IP, user) and no sign-in request facts.
 */
export const recordEnrollment = (
  deps: EnrollmentDeps,
  flow: EnrollmentFlow,
  action: Parameters<HostedDeps['record']>[1],
  facts: Parameters<HostedDeps['record']>[2] = {},
) => deps.record(flow as unknown as Flow<SignInRequest>, action, { flowType: 'enrollment', ...facts });

/** The RP's redirect_uri with the given parameters (state when the RP sent one). */
export function enrollmentRedirect(flow: EnrollmentFlow, params: Record<string, string> = {}): string {
  const url = new URL(flow.request.redirectUri);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  if (flow.request.state !== undefined) url.searchParams.set('state', flow.request.state);
  return url.toString();
}
