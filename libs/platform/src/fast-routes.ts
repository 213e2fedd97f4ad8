import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { API_CSP, helmetHeaders } from './http';
import type { ServiceMetrics } from './metrics';
import { type PreparedAnswer, etagOf, noneMatch, prepareAnswer, writePreparedHead } from './prepared-answer';
import { durationRecorder, pathOf, requestIdOf } from './raw-http';

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
  return [...helmetHeaders(), ['Content-Security-Policy', API_CSP]];
}

/** The same route as an express handler, so hosts that only mount `routes` serve it too (ETag and 304 alike). */
export function fastRouteHandler(route: FastRoute): RequestHandler {
  let etagged: { body: Buffer; etag: string } | undefined;
  return (req, res) => {
    const { status = 200, headers, body } = route.respond();
    if (etagged?.body !== body) etagged = { body, etag: etagOf(body) };
    // setHeader, not express's res.set: that would append "; charset=utf-8" to the route's Content-Type.
    res.setHeader(publicCors[0]!, publicCors[1]!);
    for (const name in headers) res.setHeader(name, headers[name]!);
    res.setHeader('ETag', etagged.etag);
    if (status === 200 && noneMatch(req.header('if-none-match'), etagged.etag)) {
      res.status(304).end();
      return;
    }
    res.status(status);
    res.setHeader('Content-Length', body.length);
    res.end(req.method === 'HEAD' ? undefined : body);
  };
}

/**
 * Wraps a request listener (an express app): GET/HEAD of a fast route's exact path is answered here,
 * everything else goes to `next`. Takes the modules of the host (one for runStandalone, all six for the
 * embedded launcher) so each route's duration lands in its own service's metrics. Each route's answer is
 * prepared once per body (prepared-answer.ts) and a matching If-None-Match is answered 304 on this path.
 */
export function fastRouteListener(
  next: RequestListener,
  modules: Array<{ fastRoutes?: FastRoute[]; metrics?: ServiceMetrics }>,
): RequestListener {
  interface Entry {
    route: FastRoute;
    observe: ReturnType<typeof durationRecorder>;
    /** The answer prepared for the last body and headers the route handed out. */
    answer?: PreparedAnswer;
    headers?: Record<string, string>;
  }
  const routes = new Map<string, Entry>();
  for (const mod of modules) {
    for (const route of mod.fastRoutes ?? [])
      routes.set(route.path, { route, observe: durationRecorder(mod.metrics, route.path) });
  }
  if (routes.size === 0) return next;
  const security = [...securityHeaders().flat(), ...publicCors];
  return (req, res) => {
    const method = req.method;
    if (method !== 'GET' && method !== 'HEAD') return next(req, res);
    const entry = routes.get(pathOf(req.url));
    if (!entry) return next(req, res);
    const started = process.hrtime.bigint();
    const { status = 200, headers, body } = entry.route.respond();
    let answer = entry.answer;
    if (answer?.body !== body || entry.headers !== headers) {
      answer = prepareAnswer(body, [...security, ...Object.entries(headers).flat()]);
      entry.answer = answer;
      entry.headers = headers;
    }
    // writeHead reads the list synchronously, so the prepared list is reused with this request's id in it.
    const requestId = requestIdOf(req.headers['x-request-id']);
    if (status === 200 && noneMatch(req.headers['if-none-match'], answer.etag)) {
      writePreparedHead(res, 304, answer.notModified, answer.notModifiedFields, requestId);
      res.end();
      entry.observe(method, 304, started);
      return;
    }
    writePreparedHead(res, status, answer.ok, answer.okFields, requestId);
    if (method === 'HEAD') res.end();
    else res.end(answer.body);
    entry.observe(method, status, started);
  };
}
