import type { RequestListener } from 'node:http';

/**
 * A dynamic endpoint answered at the node:http level ahead of express (as fast routes are for static GETs):
 * for the hottest protocol endpoints whose handler reads, validates and answers the request itself
 * (POST /token). The handler owns everything express would add — security headers, request id, metrics,
 * error rendering. A service also mounts the same handler in `routes`, so hosts that only mount express
 * routes serve it too.
 */
export interface RawRoute {
  method: 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  /** Exact path; a query string is ignored when matching. */
  path: string;
  handle: RequestListener;
}

/** Wraps a request listener: requests matching a raw route's method and exact path go to its handler. */
export function rawRouteListener(
  next: RequestListener,
  modules: Array<{ rawRoutes?: RawRoute[] }>,
): RequestListener {
  const routes = new Map<string, RequestListener>();
  for (const mod of modules)
    for (const route of mod.rawRoutes ?? []) routes.set(`${route.method} ${route.path}`, route.handle);
  if (routes.size === 0) return next;
  return (req, res) => {
    const url = req.url ?? '/';
    const query = url.indexOf('?');
    const handle = routes.get(`${req.method} ${query === -1 ? url : url.slice(0, query)}`);
    if (handle) handle(req, res);
    else next(req, res);
  };
}
