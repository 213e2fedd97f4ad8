import type { Request, RequestHandler, Response } from 'express';
import { type AdminAction, isAllowed } from '../admins/permissions';
import { type StepUpAction, stepUpRefusal } from '../admins/step-up';
import { asyncRoute } from '../http/async-route';
import { ct } from '../i18n';
import { type ConsoleDeps, type SignedIn, emitAs, signedInOf } from './context';
import { consoleScriptCsp } from './copy-script';
import { ConsoleError } from './errors';
import { forbidden } from './forbidden';
import { CONSOLE_PATH, type ConsoleRenderer, consoleHeadersWith } from './render';
import { shellFor } from './shell';
import type { ConsolePage } from './templates';

export const date = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Only console paths are followed after sign-in (never an open redirect). */
export const safeReturn = (value: unknown) =>
  typeof value === 'string' && /^\/console\/[\w\-./%]*$/.test(value) && !value.includes('//')
    ? value
    : `${CONSOLE_PATH}/`;

export const signInPath = (returnTo: string, stepUp = false) =>
  `${CONSOLE_PATH}/signin?${new URLSearchParams({ return: returnTo, ...(stepUp ? { prompt: 'login' } : {}) })}`;

/** The page a form was posted from, as far as the path tells (the action's own segments dropped). */
const pageOf = (path: string) =>
  path
    .split('?')[0]!
    .replace(/\/devices\/[^/]+\/block$/, '')
    .replace(/\/[^/]+\/(revoke|remove|role)$/, '')
    .replace(/\/(secret|client-type|invite|name|blocked-countries|remove)$/, '')
    .replace(/^\/console\/tenants$/, '/console/tenants/new');

/**
 * The console's side of the step-up table (admins/step-up.ts): unless the session signed in recently enough
 * for `action`, a 403 page offering Sign in again (prompt=login) that comes back to the page of the form.
 * Called before anything is read for the action or written.
 */
export function requireStepUp(
  deps: Pick<ConsoleDeps, 'clock'>,
  req: Request,
  s: SignedIn,
  action: StepUpAction,
): void {
  const caller = { kind: 'console', signedInAt: s.session.signedInAt } as const;
  if (stepUpRefusal(action, caller, deps.clock.now())) {
    throw new ConsoleError(403, 'error.stepUp', {}, signInPath(safeReturn(pageOf(req.originalUrl)), true));
  }
}

/**
 * 403 console page unless the signed-in role may do `action` (the admin API's permission table); the page
 * keeps the navigation and says which roles can (forbidden.ts).
 */
export function requireRole(s: SignedIn, action: AdminAction): void {
  if (!isAllowed(s.account.role, action)) throw forbidden(s, action);
}

/** A page handler for a signed-in administrator whose role may do `action` (else the 403 page). */
export function allowedRoute(
  action: Parameters<typeof isAllowed>[1],
  fn: (req: Request, res: Response, s: SignedIn) => Promise<void>,
  /** A row of the step-up table the action always is (checked after the role). */
  stepUp?: { deps: Pick<ConsoleDeps, 'clock'>; action: StepUpAction },
): RequestHandler {
  return asyncRoute(async (req, res) => {
    const s = signedInOf(res);
    requireRole(s, action);
    if (stepUp) requireStepUp(stepUp.deps, req, s, stepUp.action);
    await fn(req, res, s);
  });
}

/** What every page handler uses: render a page inside the shell, and emit admin events as the session. */
export function pageKit(deps: ConsoleDeps, renderer: ConsoleRenderer) {
  const show = (
    res: Response,
    page: ConsolePage,
    current: string,
    titleKey: string,
    view: Record<string, unknown>,
    status = 200,
    /** CSP directives beyond the console's (Branding's `script-src 'self'`). */
    csp: readonly string[] = [],
  ) => {
    const s = signedInOf(res);
    const shell = shellFor(s, current);
    res
      .status(status)
      // A page with Copy buttons loads the console's copy script: only it may run scripts of the console's own.
      .set(consoleHeadersWith(view.copyScript ? [...csp, ...consoleScriptCsp] : csp))
      .send(
        renderer.render(page, s.locale, {
          title: ct(s.locale, titleKey),
          shell,
          csrf: s.session.csrf,
          // A new administrator's first page (from their invitation): a welcome above the page.
          ...(res.req.query.welcome !== undefined
            ? {
                welcome: ct(s.locale, 'invitation.welcome', {
                  email: s.session.email,
                  tenant: s.tenant.name,
                  role: ct(s.locale, `role.${s.account.role}`),
                }),
              }
            : {}),
          ...view,
        }),
      );
  };
  const emit = (req: Request, res: Response) => emitAs(deps, req, signedInOf(res).session);
  /** The step-up option of allowedRoute for `action`. */
  const stepUp = (action: StepUpAction) => ({ deps, action });
  return { show, emit, stepUp };
}
