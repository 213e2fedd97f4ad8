import type { RequestHandler } from 'express';
import { negotiateLocale } from '../i18n';
import type { PageRenderer } from './renderer';
import { sendErrorPage, sendPage } from './respond';

/**
 * The last handler of the public port: an unknown path is the hosted "Page not found" (404) for a browser,
 * and `{"error":"not_found"}` only for a client whose Accept prefers JSON over HTML.
 */
export function notFoundHandler(deps: { pages: PageRenderer }): RequestHandler {
  return (req, res) => {
    if (req.accepts(['html', 'json']) === 'json') {
      res.status(404).json({ error: 'not_found' });
      return;
    }
    sendErrorPage(deps, req, res, 404, 'notFound');
  };
}

/** The root URL of a development setup: links to the console, the discovery document and the outbox. */
export function welcomePage(
  deps: { pages: PageRenderer },
  adminUrl: string,
  outbox: boolean,
): RequestHandler {
  const consoleUrl = `${adminUrl.replace(/\/+$/, '')}/console/`;
  return (req, res) => {
    const locale = negotiateLocale([], req.get('accept-language'));
    const view = {
      consoleUrl,
      discoveryUrl: '/.well-known/openid-configuration',
      ...(outbox ? { outboxUrl: '/dev/mail' } : {}),
    };
    sendPage(deps, res, 'welcome', locale, view);
  };
}
