import type { Request, Response } from 'express';
import type { HostedDeps } from './deps';

/** Sends a hosted page with the page headers; `formTargets` are origins a form on it may end up at. */
export function sendPage(
  deps: HostedDeps,
  res: Response,
  page: string,
  locale: string,
  view: Record<string, unknown>,
  opts: { status?: number; formTargets?: string[] } = {},
): void {
  res
    .status(opts.status ?? 200)
    .set(deps.pageHeaders(opts.formTargets ?? []))
    .type('html')
    .send(deps.render(page, locale, view));
}

/** The error page, in the locale the request asks for: never a redirect, never a stack trace. */
export function sendErrorPage(
  deps: HostedDeps,
  req: Request,
  res: Response,
  status: number,
  reason: string,
  locale?: string,
): void {
  const lang = locale ?? deps.negotiateLocale([], req.get('accept-language'));
  sendPage(deps, res, 'error', lang, { reason }, { status });
}

export const originOf = (uri: string) => new URL(uri).origin;
