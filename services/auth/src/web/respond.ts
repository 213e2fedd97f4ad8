import type { Request, Response } from 'express';
import type { FlowDevice } from '../flow/flow';
import { type Locale, negotiateLocale } from '../i18n';
import { type PageName, type PageViews, hostedPageHeaders } from '../pages';
import type { HostedDeps } from './deps';

/** Sends a hosted page with its headers; `formTargets` are origins a form on it may end up at (the RP). */
export function sendPage<P extends PageName>(
  deps: HostedDeps,
  res: Response,
  page: P,
  locale: Locale,
  view: PageViews[P],
  opts: { status?: number; formTargets?: string[] } = {},
): void {
  const html = deps.pages.render(page, locale, view);
  // res.end, not res.send: a no-store page needs no ETag (express would hash every page for one), and the
  // headers already name the type and charset.
  res
    .status(opts.status ?? 200)
    .set(hostedPageHeaders({ formActionOrigins: opts.formTargets ?? [] }))
    .set('Content-Length', String(Buffer.byteLength(html)))
    .end(html);
}

/** Why a page could not go on; each has a title and message in the catalogs (error.<reason>.*). */
export type ErrorReason =
  | 'generic'
  | 'unknownClient'
  | 'badRedirectUri'
  | 'linkExpired'
  | 'sessionMismatch'
  | 'tooManyAttempts'
  | 'flowExpired'
  | 'csrf'
  | 'notFound'
  | 'cibaWrongUser'
  | 'enrollLinkInvalid';

/** The error page, in the locale the request asks for: never a redirect, never a stack trace. */
export function sendErrorPage(
  deps: HostedDeps,
  req: Request,
  res: Response,
  status: number,
  reason: ErrorReason,
  locale?: Locale,
): void {
  const lang = locale ?? negotiateLocale([], req.get('accept-language'));
  sendPage(
    deps,
    res,
    'error',
    lang,
    { title: `error.${reason}.title`, message: `error.${reason}.message` },
    { status },
  );
}

export const originOf = (uri: string) => new URL(uri).origin;

/** The browser making this request: its device cookie (issued if new) and what its User-Agent says. */
export function thisDevice(deps: HostedDeps, req: Request, res: Response): FlowDevice {
  return { deviceId: deps.sessions.deviceId(req, res), facts: deps.deviceFacts(req.get('user-agent')) };
}

/**
 * For a page whose form may end at the RP through redirects (code → continue → redirect_uri, link confirm,
 * consent): Chrome applies form-action to each redirect after the POST, so the RP's origin must be listed.
 */
export const rpFormTarget = (flow: { request: { redirectUri: string } }) => [
  originOf(flow.request.redirectUri),
];
