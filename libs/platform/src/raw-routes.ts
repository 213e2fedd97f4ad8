import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { pathOf } from './raw-http';

/**
 * A dynamic endpoint answered at the node:http level ahead of express (as fast routes are for static GETs):
 * for the hottest endpoints whose handler reads, validates and answers the request itself (POST /token,
 * GET /authorize). The handler owns everything express would add — security headers, request id, metrics,
 * error rendering — and builds it from raw-http.ts, as express's are built from the same rules. A handler that serves only the common case hands anything else to `next` (the host's
 * express app) before it has written anything; the service mounts the full endpoint in `routes` too, so hosts
 * that only mount express routes serve it as well.
 */
export interface RawRoute {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  /** Exact path; a query string is ignored when matching. */
  path: string;
  handle: (req: IncomingMessage, res: ServerResponse, next: RequestListener) => void;
}

/** Wraps a request listener: requests matching a raw route's method and exact path go to its handler. */
export function rawRouteListener(
  next: RequestListener,
  modules: Array<{ rawRoutes?: RawRoute[] }>,
): RequestListener {
  const routes = new Map<string, RawRoute['handle']>();
  for (const mod of modules)
    for (const route of mod.rawRoutes ?? []) routes.set(`${route.method} ${route.path}`, route.handle);
  if (routes.size === 0) return next;
  return (req, res) => {
    const handle = routes.get(`${req.method} ${pathOf(req.url)}`);
    if (handle) handle(req, res, next);
    else next(req, res);
  };
}
