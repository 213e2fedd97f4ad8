import type { Request, Response } from 'express';
import type { HostedDeps } from '../../web/deps';
import { sendErrorPage } from '../../web/respond';

/** The longest query a POST /authorize is turned into: well inside node's 16 KB for a request's headers. */
export const MAX_RESUBMITTED_QUERY = 8 * 1024;

/**
 * POST /authorize that arrives without the session cookie (issue 26, finding 8). The session cookie is
 * SameSite=Lax, so a browser leaves it off every cross-site POST: the RP's form (or an attacker's) reaches us
 * as if nobody were signed in, and starting the flow here would set a fresh session cookie over the live
 * one, signing the person out. Instead the same parameters are sent back as a 303 to GET /authorize: a
 * top-level GET navigation, on which the browser does send its Lax cookies, so the flow starts in the live
 * session (single sign-on included) and no cookie is set by the POST. A POST that carries the cookie was
 * sent same-site and is answered as it is. Returns whether it answered.
 */
export function resubmitAsGet(deps: Pick<HostedDeps, 'sessions' | 'pages'>, req: Request, res: Response) {
  if (req.method !== 'POST') return false;
  const cookies = deps.sessions.cookiesOf(req.headers.cookie);
  if (cookies[deps.sessions.sessionCookie] !== undefined) return false;
  const query = new URLSearchParams();
  const body = (req.body ?? {}) as Record<string, unknown>;
  for (const [name, value] of Object.entries(body)) {
    for (const one of Array.isArray(value) ? value : [value]) {
      if (typeof one === 'string') query.append(name, one);
    }
  }
  const search = query.toString();
  // Too long for a URL: refused with the error page (before any cookie), never answered as a cookie-less POST.
  if (search.length > MAX_RESUBMITTED_QUERY) {
    sendErrorPage(deps, req, res, 400, 'generic');
    return true;
  }
  res.set('Cache-Control', 'no-store').redirect(303, search ? `/authorize?${search}` : '/authorize');
  return true;
}
