import type { Request, RequestHandler, Response } from 'express';
import { isAllowed } from '../admins/permissions';
import { asyncRoute } from '../http/async-route';
import { type ConsoleDeps, type SignedIn, emitAs, signedInOf } from './context';
import { ConsoleError } from './errors';
import { ct } from './i18n';
import { type ConsoleRenderer, consoleHeaders, shellOf } from './render';
import type { ConsolePage } from './templates';

export const date = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** 403 console page unless the signed-in role may do `action` (the admin API's permission table). */
export function requireRole(s: SignedIn, action: Parameters<typeof isAllowed>[1]): void {
  if (!isAllowed(s.account.role, action)) throw new ConsoleError(403, 'error.forbidden');
}

/** A page handler for a signed-in administrator whose role may do `action` (else the 403 page). */
export function allowedRoute(
  action: Parameters<typeof isAllowed>[1],
  fn: (req: Request, res: Response, s: SignedIn) => Promise<void>,
): RequestHandler {
  return asyncRoute(async (req, res) => {
    const s = signedInOf(res);
    requireRole(s, action);
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
  ) => {
    const s = signedInOf(res);
    const shell = shellOf({
      email: s.session.email,
      role: s.account.role,
      tenantName: s.tenant.name,
      csrf: s.session.csrf,
      current,
      locale: s.locale,
      tenants: s.tenants,
      currentTenantId: s.tenant.tenantId,
      canCreateTenant: isAllowed(s.account.role, 'tenant.create'),
    });
    res
      .status(status)
      .set(consoleHeaders)
      .send(
        renderer.render(page, s.locale, {
          title: ct(s.locale, titleKey),
          shell,
          csrf: s.session.csrf,
          ...view,
        }),
      );
  };
  const emit = (req: Request, res: Response) => emitAs(deps, req, signedInOf(res).session);
  return { show, emit };
}
