import { HttpError } from '@sesame/platform';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { ct } from '../i18n';
import { localeOf } from './context';
import { CONSOLE_PATH, type ConsoleRenderer, consoleHeaders } from './render';
import { sectionOfPath, shellFor, signedInIfAny } from './shell';

/** A console answer other than a page: a status and a catalog message, shown on the console's error page. */
export class ConsoleError extends Error {
  constructor(
    readonly status: number,
    readonly messageKey: string,
    readonly vars: Record<string, unknown> = {},
    /** Offer a fresh sign-in (step-up) that returns here. */
    readonly signInAgain?: string,
  ) {
    super(messageKey);
    this.name = 'ConsoleError';
  }
}

export const consoleNotFound: RequestHandler = (_req, _res, next) =>
  next(new ConsoleError(404, 'error.notFound'));

/**
 * Every 4xx and 5xx inside the console is a console page with a way back, never JSON; signed in, it keeps
 * the navigation (a 403 among the pages the role can open, saying which role can do this). ConsoleErrors as
 * they say, the admin domain's MgmtErrors by status (403 forbidden, 4xx with their message, 503 a peer that
 * cannot answer), anything else
 * logged and shown as a generic failure.
 */
export function consoleErrors(renderer: ConsoleRenderer): ErrorRequestHandler {
  return (err, req, res, _next) => {
    const locale = localeOf(req);
    let status = 500;
    let message = ct(locale, 'error.server');
    let signInAgain: string | undefined;
    if (err instanceof ConsoleError) {
      status = err.status;
      message = ct(locale, err.messageKey, err.vars);
      signInAgain = err.signInAgain;
    } else if (err instanceof HttpError && err.status === 403) {
      status = 403;
      message = ct(locale, 'error.forbidden');
    } else if (err instanceof HttpError && err.status === 503) {
      // A peer (auth, activity-log, token) cannot answer: say so, not "could not do this".
      status = 503;
      message = ct(locale, 'error.unavailable');
    } else if (err instanceof HttpError && err.status < 500) {
      status = err.status;
      const body = err.body() as { error?: { message?: string; fields?: Record<string, string> } };
      const fields = Object.entries(body.error?.fields ?? {}).map(([f, why]) => `${f}: ${why}`);
      message = ct(locale, 'error.invalid', {
        message: [body.error?.message, ...fields].filter(Boolean).join('; '),
      });
    } else if (typeof err?.status === 'number' && err.status >= 400 && err.status < 500) {
      status = 400;
      message = ct(locale, 'error.invalid', { message: 'malformed form' });
    } else {
      req.log?.error({ err }, 'console request failed');
    }
    // A session that is over (or never was) has no navigation: the error stands alone on a card.
    const s = status === 401 || res.headersSent ? undefined : signedInIfAny(res);
    const title = ct(locale, status === 403 && s && !signInAgain ? 'error.forbiddenTitle' : 'error.title');
    res
      .status(status)
      .set(consoleHeaders)
      .send(
        renderer.render('error', locale, {
          title,
          heading: title,
          message,
          back: `${CONSOLE_PATH}/`,
          ...(s ? { shell: shellFor(s, sectionOfPath(req.originalUrl)), csrf: s.session.csrf } : {}),
          ...(signInAgain ? { signInAgain } : {}),
        }),
      );
  };
}
