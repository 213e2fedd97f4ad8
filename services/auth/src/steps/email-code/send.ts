import type { Request, Response } from 'express';
import { mailRequester } from '../../email/send-requester';
import type { FlowContext } from '../../flow/flow-guard';
import type { HostedDeps } from '../../web/deps';
import { sendPage } from '../../web/respond';
import { identifyView } from '../identify/view';
import { sendSignInMail } from './mail';

/**
 * Mails a one-time code for the flow to `email`, throttled per address (with caller IP, tenant, and
 * over everyone) and caller IP; a browser signed in as the address's owner has its own limit instead. False when nothing was
 * sent, with the page already answered (the identify page with the reason: 429 or 503).
 */
export async function sendEmailCode(
  deps: HostedDeps,
  req: Request,
  res: Response,
  { flow, session }: FlowContext,
  email: string,
): Promise<boolean> {
  const again = (error: 'rateLimited' | 'mailFailed', status: number) => {
    const view = identifyView({ ...flow, email }, session.csrf, error);
    sendPage(deps, res, 'identify', flow.locale, view, { status });
    return false;
  };
  const requester = await mailRequester(deps, flow.tenantId, session, email);
  if (!(await deps.sendThrottle.reserve(email, req.ip ?? '', requester))) return again('rateLimited', 429);
  const code = await deps.codes.issue(flow.id, email);
  const sent = await sendSignInMail(deps, flow, 'code', email, { code, minutes: deps.codeTtlMinutes });
  if (!sent) return again('mailFailed', 503);
  return true;
}
