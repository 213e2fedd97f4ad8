import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import helmet from 'helmet';
import { API_CSP, helmetOptions } from './http';
import type { ServiceMetrics } from './metrics';
import { durationRecorder, pathOf, requestIdOf, sendRaw } from './raw-http';

/** A prebuilt answer: the body is serialized once (when its data changes), never per request. */
export interface StaticResponse {
  status?: number;
  headers: Record<string, string>;
  body: Buffer;
}

/**
 * A GET (and HEAD) of one exact path answered from a prebuilt response. Hosts answer it at the node:http
 * level ahead of express (see fastRouteListener), with the same security headers, request id and duration
 * metric as express routes, at a fraction of the per-request cost. For hot, static, public documents only
 * (/jwks, discovery); anything that reads the request belongs in express.
 */
export interface FastRoute {
  path: string;
  respond: () => StaticResponse;
}

/** Fast routes are public documents (discovery, /jwks): any origin may read them; no credentials involved. */
const publicCors = ['Access-Control-Allow-Origin', '*'];

/**
 * The headers helmet sets on every express response, captured once by running it against a stub response,
 * and the API_CSP every non-page answer carries (a page's own policy replaces it: see authorize-fast.ts).
 */
export function securityHeaders(): Array<[string, string]> {
  const headers = new Map<string, string>();
  const stub = {
    setHeader: (name: string, value: unknown) => headers.set(name, String(value)),
    removeHeader: (name: string) => headers.delete(name),
  };
  helmet(helmetOptions)({} as IncomingMessage, stub as unknown as ServerResponse, () => {});
  headers.set('Content-Security-Policy', API_CSP);
  return [...headers];
}

/** The same route as an express handler, so hosts that only mount `routes` serve it too. */
export function fastRouteHandler(route: FastRoute): RequestHandler {
  return (req, res) => {
    const { status = 200, headers, body } = route.respond();
    // setHeader, not express's res.set: that would append "; charset=utf-8" to the route's Content-Type.
    res.status(status);
    res.setHeader(publicCors[0]!, publicCors[1]!);
    for (const name in headers) res.setHeader(name, headers[name]!);
    res.setHeader('Content-Length', body.length);
    res.end(req.method === 'HEAD' ? undefined : body);
  };
}

/**
 * Wraps a request listener (an express app): GET/HEAD of a fast route's exact path is answered here,
 * everything else goes to `next`. Takes the modules of the host (one for runStandalone, all six for the
 * embedded launcher) so each route's duration lands in its own service's metrics.
 */
export function fastRouteListener(
  next: RequestListener,
  modules: Array<{ fastRoutes?: FastRoute[]; metrics?: ServiceMetrics }>,
): RequestListener {
  const routes = new Map<string, { route: FastRoute; observe: ReturnType<typeof durationRecorder> }>();
  for (const mod of modules) {
    for (const route of mod.fastRoutes ?? [])
      routes.set(route.path, { route, observe: durationRecorder(mod.metrics, route.path) });
  }
  if (routes.size === 0) return next;
  // Headers go to writeHead as one flat [name, value, ...] array: no per-header setHeader bookkeeping.
  const security = [...securityHeaders().flat(), ...publicCors];
  const flatHeaders = new WeakMap<Record<string, string>, string[]>();
  const flat = (headers: Record<string, string>) => {
    let list = flatHeaders.get(headers);
    if (!list) {
      list = [...security, ...Object.entries(headers).flat()];
      flatHeaders.set(headers, list);
    }
    return list;
  };
  // A string body goes out in the same write as the headers (node joins them); a Buffer body costs a second
  // chunk (writev). latin1 maps bytes 1:1, so any body (UTF-8 JSON included) is sent byte for byte.
  const latin1Bodies = new WeakMap<Buffer, string>();
  const latin1 = (body: Buffer) => {
    let text = latin1Bodies.get(body);
    if (text === undefined) {
      text = body.toString('latin1');
      latin1Bodies.set(body, text);
    }
    return text;
  };
  return (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next(req, res);
    const entry = routes.get(pathOf(req.url));
    if (!entry) return next(req, res);
    const started = process.hrtime.bigint();
    const { status = 200, headers, body } = entry.route.respond();
    const requestId = requestIdOf(req.headers['x-request-id']);
    const head = req.method === 'HEAD';
    sendRaw(res, status, [...flat(headers), 'X-Request-Id', requestId], latin1(body), 'latin1', head);
    entry.observe(req.method, status, started);
  };
}
