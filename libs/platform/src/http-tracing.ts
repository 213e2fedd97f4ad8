import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { ROOT_CONTEXT, type Span } from '@opentelemetry/api';
import { pathOf } from './raw-http';
import { SpanKind, SpanStatusCode, activeTracer, contextFrom, startRootSpan, withSpan } from './tracing';

/**
 * Paths no span is made for: probes and scrapes (/healthz, /readyz, /metrics, and the embedded default's
 * /ops/<service>/…), content-hashed static files (auth's /assets/, the console's /console/assets/) and the
 * development outboxes (/dev/mail, /dev/sms). Nothing in a trace would say more than the access metrics do.
 */
const untracedPath = /^\/(?:(?:healthz|readyz|metrics)(?:[/?]|$)|ops\/|assets\/|console\/assets\/|dev\/)/;

/** Whether a request to `url` gets no span at all (untracedPath). */
export function isUntracedPath(url: string | undefined): boolean {
  return url !== undefined && untracedPath.test(url);
}

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
 *
 * The sampling decision is made here, once per trace: a request without `traceparent` that the sampler
 * leaves out runs in no trace context at all (no context switch, no `traceparent` to peers or on events),
 * and since gRPC servers and event consumers only continue a trace they were handed (never start one), the
 * services behind it record nothing either. A caller's unsampled `traceparent` travels on as it came, so its
 * trace id reaches our log lines and peers. Untraced paths (untracedPath) get nothing.
 */
export function tracedListener(next: RequestListener): RequestListener {
  const tracer = activeTracer();
  if (!tracer) return next;
  return (req, res) => {
    if (isUntracedPath(req.url)) return next(req, res);
    const method = req.method ?? 'GET';
    let span: Span | undefined;
    let parent = ROOT_CONTEXT;
    if (req.headers.traceparent !== undefined) {
      parent = contextFrom(req.headers);
      span = tracer.startSpan(method, { kind: SpanKind.SERVER }, parent);
      // A caller's unsampled trace: no span recorded, its context travelling on (its trace id in our logs).
      if (!span.isRecording()) return withSpan(span, parent, () => next(req, res));
    } else {
      span = startRootSpan(tracer, method, SpanKind.SERVER);
      if (!span) return next(req, res);
    }
    open.set(res, { span, req, method });
    res.on('close', endServerSpan);
    withSpan(span, parent, () => next(req, res));
  };
}

/** The span of each answer still being written, for endServerSpan (no closure made per request). */
const open = new WeakMap<ServerResponse, { span: Span; req: IncomingMessage; method: string }>();

/**
 * Ends an answer's span on its 'close', which follows 'finish' or comes alone when the connection dropped
 * first: one listener, shared by every request (a second, on 'finish', turned the answer's own 'finish'
 * listener into an array on sampled requests only).
 */
function endServerSpan(this: ServerResponse): void {
  const state = open.get(this);
  if (!state) return;
  open.delete(this);
  const { span, req, method } = state;
  const status = this.statusCode;
  const route = routeOf(req);
  span.updateName(route && status !== 404 ? `${method} ${route}` : method);
  span.setAttribute('http.request.method', method);
  span.setAttribute('url.path', pathOf(req.url));
  if (route) span.setAttribute('http.route', route);
  if (!this.writableFinished) {
    // The caller went away before the answer was sent: no status code was answered.
    span.setStatus({ code: SpanStatusCode.ERROR, message: 'connection closed before the answer was sent' });
  } else {
    span.setAttribute('http.response.status_code', status);
    if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
  }
  span.end();
}

function routeOf(req: IncomingMessage): string {
  const routed = req as IncomingMessage & Routed;
  if (routed.route?.path) return `${routed.baseUrl ?? ''}${routed.route.path}`;
  return pathOf(req.url);
}
