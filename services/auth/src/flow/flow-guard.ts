import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { BrowserSession } from '../session/browser-session';
import type { SignInRequest } from '../signin/request';
import type { HostedDeps } from '../web/deps';
import { sendErrorPage } from '../web/respond';
import type { Flow } from './flow';

export interface FlowContext {
  flow: Flow<SignInRequest>;
  session: BrowserSession;
}

type FlowHandler = (req: Request, res: Response, ctx: FlowContext) => Promise<void>;

/**
 * Loads the flow named in the path and refuses what may not drive it: an unknown or expired flow, a browser
 * other than the one that started it (another session's flow), and on POST a missing or wrong CSRF token.
 */
export function withFlow(deps: HostedDeps, handler: FlowHandler, opts: { csrf: boolean }): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const run = async () => {
      const flow = await deps.flows.get<SignInRequest>(String(req.params.flowId));
      if (!flow) return sendErrorPage(deps, req, res, 410, 'flowExpired');
      const session = await deps.sessions.load(req);
      if (!session || session.key !== flow.sessionKey) {
        return sendErrorPage(deps, req, res, 403, 'sessionMismatch', flow.locale);
      }
      if (opts.csrf && !deps.sessions.csrfMatches(session, (req.body as Record<string, unknown>)?.csrf)) {
        return sendErrorPage(deps, req, res, 403, 'csrf', flow.locale);
      }
      await handler(req, res, { flow, session });
    };
    run().catch(next);
  };
}
