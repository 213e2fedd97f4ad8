import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Brands } from '../branding/brands';
import { withBrandOf } from '../branding/with-brand';
import type { Locale } from '../i18n';
import { type ErrorBack, type ErrorReason, type PageRenderer, sendErrorPage } from '../pages';
import type { BrowserSession } from '../session/browser-session';
import type { SessionManager } from '../session/browser-session';
import type { Flow } from './flow';
import type { FlowStore } from './flow-store';

/** What the guard needs: the browser sessions, and the renderer of its error page. */
export interface GuardDeps {
  sessions: Pick<SessionManager, 'load' | 'csrfMatches'>;
  pages: PageRenderer;
  /** The apps' brands: the flow's pages show its app's. */
  brands?: Brands;
}

/** A guarded request's flow and the browser session that may drive it. */
export interface GuardedContext<F> {
  flow: F;
  session: BrowserSession;
}

export type GuardedHandler<F> = (req: Request, res: Response, ctx: GuardedContext<F>) => Promise<void>;

/** How one kind of route finds its flow and who may drive it. */
export interface FlowAccess<F extends { locale: Locale }> {
  /** The path parameter naming the flow. */
  param: string;
  load(id: string): Promise<F | undefined>;
  /** The hash of the only browser session that may drive the flow here (the desktop's, or its phone's). */
  owner(flow: F): string | undefined;
  /** Whether the flow still takes requests here (default: while it exists). */
  open?(flow: F): boolean;
  /** The error page of an unknown, expired or closed flow (410; default flowExpired). */
  gone?: ErrorReason;
  /** Answers must not be stored (the phone's pages). */
  noStore?: boolean;
  /**
   * The way back to the app from this flow's error pages: its redirect_uri with an OAuth error (and state and
   * iss), shown as **Back to <app>**; absent where the browser has no app to go back to (a phone's side, CIBA).
   */
  backTo?(flow: F, reason: ErrorReason): ErrorBack | undefined;
}

/**
 * The one guard of every flow route (sign-in, CIBA, enrollment, registration, a phone's side): loads the flow
 * named in the path and refuses what may not drive it: an unknown, expired or closed flow (410), a browser
 * other than the one it is bound to (403 sessionMismatch), and on POST a missing or wrong CSRF token (403).
 */
export function guardFlow<F extends { locale: Locale }>(
  deps: GuardDeps,
  access: FlowAccess<F>,
  handler: GuardedHandler<F>,
  opts: { csrf: boolean },
): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const run = async () => {
      const flow = await access.load(String(req.params[access.param]));
      if (!flow || (access.open && !access.open(flow)))
        return sendErrorPage(deps, req, res, 410, access.gone ?? 'flowExpired');
      // Its app's brand (a registration's from its invitation) on every page from here on, errors included.
      await withBrandOf(deps, res, flow);
      const session = await deps.sessions.load(req);
      const owner = access.owner(flow);
      if (!session || !owner || session.key !== owner) {
        const back = access.backTo?.(flow, 'sessionMismatch');
        return sendErrorPage(deps, req, res, 403, 'sessionMismatch', flow.locale, back);
      }
      if (opts.csrf && !deps.sessions.csrfMatches(session, (req.body as Record<string, unknown>)?.csrf)) {
        return sendErrorPage(deps, req, res, 403, 'csrf', flow.locale, access.backTo?.(flow, 'csrf'));
      }
      await handler(req, access.noStore ? res.set('Cache-Control', 'no-store') : res, { flow, session });
    };
    run().catch(next);
  };
}

export type FlowContext = GuardedContext<Flow>;

/** What each error page of a known sign-in tells the app (OIDC Core 3.1.2.6's access_denied, a true reason). */
const BACK_DESCRIPTIONS: Partial<Record<ErrorReason, string>> = {
  sessionMismatch: 'the sign-in was continued in a different browser than the one that started it',
  csrf: 'the sign-in page had expired',
  flowExpired: 'the sign-in expired before it was completed',
  accountDisabled: 'the account is disabled',
};

/** Back to the app from a sign-in flow's error page; none for CIBA or a phone's side (no app in this browser). */
export function backToApp(issuer: string, flow: Flow, reason: ErrorReason): ErrorBack | undefined {
  if (flow.ciba || flow.ama) return undefined;
  const description = BACK_DESCRIPTIONS[reason] ?? 'the sign-in could not continue';
  // As signin/redirects.ts's errorRedirect builds it (OIDC Core 3.1.2.6 with RFC 9207's iss); flow/ sits below
  // signin/, so the four parameters are set here.
  const url = new URL(flow.request.redirectUri);
  url.searchParams.set('error', 'access_denied');
  url.searchParams.set('error_description', description);
  if (flow.request.state !== undefined) url.searchParams.set('state', flow.request.state);
  url.searchParams.set('iss', issuer);
  return { appName: flow.appName, url: url.toString() };
}

/**
 * A sign-in flow's routes (`/flow/:flowId/…`): only the browser that started the flow drives it. A flow a
 * wrong number `ended` (flow.ts) takes no more POSTs (410); its pages lead to the RP with that error.
 */
export function withFlow(
  deps: GuardDeps & { flows: FlowStore; issuer: string },
  handler: GuardedHandler<Flow>,
  opts: { csrf: boolean },
): RequestHandler {
  const access: FlowAccess<Flow> = {
    param: 'flowId',
    load: (id) => deps.flows.get(id),
    owner: (flow) => flow.sessionKey,
    open: (flow) => !flow.ended || !opts.csrf,
    backTo: (flow, reason) => backToApp(deps.issuer, flow, reason),
  };
  return guardFlow(deps, access, handler, opts);
}
