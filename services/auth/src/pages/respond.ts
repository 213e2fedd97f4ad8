import type { Request, Response } from 'express';
import type { PageBrand } from '../branding/brand-urls';
import { type Locale, negotiateLocale } from '../i18n';
import { hostedPageHeaders } from './headers';
import type { PageRenderer } from './renderer';
import type { ErrorBack, PageName, PageViews } from './views';

/** Sends a hosted page with its headers; `formTargets` are origins a form on it may end up at (the RP). */
export function sendPage<P extends PageName>(
  deps: { pages: PageRenderer },
  res: Response,
  page: P,
  locale: Locale,
  view: PageViews[P],
  opts: { status?: number; formTargets?: string[] } = {},
): void {
  // The flow's brand, when the route knows the flow (the flow guard and /authorize set it: withBrand).
  const html = deps.pages.render(page, locale, view, res.locals.brand as Partial<PageBrand> | undefined);
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
  | 'tooManyStarts'
  | 'flowExpired'
  | 'csrf'
  | 'notFound'
  | 'cibaWrongUser'
  | 'enrollLinkInvalid'
  | 'logout'
  | 'numberMismatch'
  | 'numberPicked'
  | 'numberMissing'
  | 'accountDisabled';

/** The error page, in the locale the request asks for: never a redirect, never a stack trace. */
export function sendErrorPage(
  deps: { pages: PageRenderer },
  req: Request,
  res: Response,
  status: number,
  reason: ErrorReason,
  locale?: Locale,
  back?: ErrorBack,
): void {
  const lang = locale ?? negotiateLocale([], req.get('accept-language'));
  const view = { title: `error.${reason}.title`, message: `error.${reason}.message`, back };
  // The link back to the app leaves for its redirect_uri: no form, so form-action needs nothing more.
  sendPage(deps, res, 'error', lang, view, { status });
}

/** "Link not valid" (410): a one-time link used, expired or unknown; in the flow's locale when it is known. */
export function sendLinkInvalid(
  deps: { pages: PageRenderer },
  req: Request,
  res: Response,
  locale?: Locale,
): void {
  sendPage(
    deps,
    res,
    'link-invalid',
    locale ?? negotiateLocale([], req.get('accept-language')),
    {},
    { status: 410 },
  );
}
