import type { IncomingMessage, RequestListener } from 'node:http';
import { pathOf } from './raw-http';
import { SpanKind, SpanStatusCode, activeTracer, contextFrom, withSpan } from './tracing';

/** What express leaves on a request it routed (read once the answer is sent, as requestContext does). */
interface Routed {
  route?: { path?: string };
  baseUrl?: string;
}

/**
 * One SERVER span per request, child of the caller's W3C `traceparent` when it sends one (an RP's backend),
 * around every listener of the port: raw routes, fast routes and express alike. Named by method and route
 * once the answer is sent (express's route pattern; the exact path of raw and fast routes; only the method
 * for a 404, so probes of random paths do not make new span names). With tracing off this returns `next`
 * itself: no wrapper, no per-request cost.
 */
export function tracedListener(next: RequestListener): RequestListener {
  const tracer = activeTracer();
  if (!tracer) return next;
  return (req, res) => {
    const parent = contextFrom(req.headers);
    const method = req.method ?? 'GET';
    const span = tracer.startSpan(method, { kind: SpanKind.SERVER }, parent);
    // Not sampled: the context still carries the trace (its ids reach logs and peers), nothing to end.
    if (!span.isRecording()) {
      withSpan(span, parent, () => next(req, res));
      return;
    }
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      const status = res.statusCode;
      const route = routeOf(req);
      span.updateName(route && status !== 404 ? `${method} ${route}` : method);
      span.setAttribute('http.request.method', method);
      span.setAttribute('url.path', pathOf(req.url));
      span.setAttribute('http.response.status_code', status);
      if (route) span.setAttribute('http.route', route);
      if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    };
    res.once('finish', end);
    res.once('close', end);
    withSpan(span, parent, () => next(req, res));
  };
}

function routeOf(req: IncomingMessage): string {
  const routed = req as IncomingMessage & Routed;
  if (routed.route?.path) return `${routed.baseUrl ?? ''}${routed.route.path}`;
  return pathOf(req.url);
}
