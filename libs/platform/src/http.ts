// Over 300 lines on purpose: the one place every service's express app and HTTP listener are built (security
// headers, request context, CSP, errors, trust of proxies); they must change together.
import {
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerResponse,
  createServer,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import express, { type ErrorRequestHandler, type Express, type RequestHandler } from 'express';
import helmet from 'helmet';
import proxyaddr from 'proxy-addr';
import { type EnvironmentVars, isDevelopmentLike } from './environment';
import { HttpError } from './errors';
import type { Logger } from './logger';
import type { ServiceMetrics } from './metrics';
import { requestIdOf } from './raw-http';
import { type Readiness, type ReadinessReport, runReadinessChecks } from './readiness';
import { OUTAGE_RETRY_AFTER_S, outageOf } from './unavailable';

declare global {
  // biome-ignore lint/suspicious/noRedeclare: reason: augments express's global Express.Request type, the documented way to type per-request fields
  namespace Express {
    interface Request {
      id: string;
      log: Logger;
    }
  }
}

/**
 * helmet's headers (helmetOptions), captured once by running it against a stub response: helmet sets the same
 * headers on every response, whatever the request, so one loop over this list stands in for its eleven
 * chained middleware on each request (createHttpApp) and fast and raw routes send the same list.
 */
export function helmetHeaders(): Array<[string, string]> {
  const headers = new Map<string, string>();
  const stub = {
    setHeader: (name: string, value: unknown) => headers.set(name, String(value)),
    removeHeader: (name: string) => headers.delete(name),
  };
  helmet(helmetOptions)({} as IncomingMessage, stub as unknown as ServerResponse, () => {});
  return [...headers];
}

const ownLog = Symbol('request logger');
type WithLog = express.Request & { [ownLog]?: Logger };

/**
 * Every express request's `req.log` is the app logger's child with the request id, made the first time a
 * handler logs (most requests never do: pino's child() serialises its bindings each time it is called).
 */
function lazyRequestLogger(app: Express, logger: Logger): void {
  Object.defineProperty(app.request, 'log', {
    configurable: true,
    get(this: WithLog) {
      // biome-ignore lint/suspicious/noAssignInExpressions: reason: the child is made once per request, on first use
      return (this[ownLog] ??= logger.child({ reqId: this.id }));
    },
    set(this: WithLog, value: Logger) {
      this[ownLog] = value;
    },
  });
}

/**
 * The security headers (helmetHeaders), the request id (from X-Request-Id when sane, else new) and, when
 * there is a metric or debug logging to feed, the request's duration: one middleware, set up once.
 * `req.log` is the request's child logger (set here, or lazily by createHttpApp's apps).
 */
export function requestContext(
  logger: Logger,
  metrics?: ServiceMetrics,
  opts: { lazyLog?: boolean } = {},
): RequestHandler {
  const security = helmetHeaders();
  return (req, res, next) => {
    for (let i = 0; i < security.length; i++) res.setHeader(security[i]![0], security[i]![1]);
    req.id = requestIdOf(req.headers['x-request-id']);
    if (!opts.lazyLog) req.log = logger.child({ reqId: req.id });
    res.setHeader('X-Request-Id', req.id);
    if (metrics || logger.isLevelEnabled('debug')) {
      const started = process.hrtime.bigint();
      res.on('finish', () => {
        const seconds = Number(process.hrtime.bigint() - started) / 1e9;
        const route = req.route?.path ? `${req.baseUrl}${req.route.path}` : 'unmatched';
        metrics?.httpDuration.observe({ method: req.method, route, status: String(res.statusCode) }, seconds);
        req.log.debug(
          { method: req.method, path: req.path, status: res.statusCode, ms: seconds * 1000 },
          'http',
        );
      });
    }
    next();
  };
}

/**
 * Renders HttpError subclasses as their protocol defines; a store or peer outage becomes 503
 * temporarily_unavailable with Retry-After; anything else is logged and becomes server_error.
 */
export function errorHandler(logger: Logger, metrics?: ServiceMetrics): ErrorRequestHandler {
  return (err, req, res, _next) => {
    const log = req.log ?? logger;
    if (err instanceof HttpError) {
      res.status(err.status).set(err.headers).json(err.body());
      return;
    }
    // body-parser errors carry a status and type; they are the caller's fault, not ours.
    const status = typeof err?.status === 'number' ? err.status : 500;
    if (status >= 400 && status < 500) {
      res.status(status).json({ error: 'invalid_request', error_description: 'malformed request body' });
      return;
    }
    if (outageOf(err)) {
      log.warn({ err }, 'request failed: a store or peer is unavailable');
      res.status(503).set('Retry-After', String(OUTAGE_RETRY_AFTER_S)).json({
        error: 'temporarily_unavailable',
        error_description: 'the service is unavailable; retry later',
      });
      return;
    }
    metrics?.errors.inc({ kind: 'http' });
    log.error({ err }, 'unhandled error');
    res.status(500).json({ error: 'server_error', error_description: 'internal error' });
  };
}

export type { Readiness } from './readiness';

/**
 * /healthz (process alive), /readyz (every store this service uses answers), /metrics (prom-client) unless
 * `serveMetrics` is false: metrics go only on an ops port, never on the public one (issue 26).
 * `check` replaces running the readiness checks directly (runStandalone passes its ReadinessMonitor's, so a
 * /readyz request also moves the gRPC health status).
 */
export function opsRouter(opts: {
  readiness: Readiness[];
  metrics: ServiceMetrics;
  isShuttingDown: () => boolean;
  logger?: Logger;
  check?: () => Promise<ReadinessReport>;
  serveMetrics?: boolean;
  /** What /metrics answers (the embedded default: every service's, combinedMetrics); else the registry's. */
  scrape?: () => Promise<string>;
}): express.Router {
  const router = express.Router();
  const check = opts.check ?? (() => runReadinessChecks(opts.readiness, opts.logger));
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    if (opts.isShuttingDown()) {
      res.status(503).json({ status: 'shutting_down' });
      return;
    }
    const { ok, checks } = await check();
    res.status(ok ? 200 : 503).json({ status: ok ? 'ok' : 'unavailable', checks });
  });
  if (opts.serveMetrics === false) return router;
  router.get('/metrics', async (_req, res) => {
    const body = await (opts.scrape ?? (() => opts.metrics.registry.metrics()))();
    res.set('Content-Type', opts.metrics.registry.contentType).send(body);
  });
  return router;
}

export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Proxies whose X-Forwarded-For is believed: SESAME_TRUSTED_PROXIES (CIDRs or proxy-addr names such as
 * loopback), by default loopback in development and test and none elsewhere. Never "any private address": a
 * pod next to the ingress could otherwise claim any client IP and dodge the per-IP throttles. The same rule
 * for express routes (req.ip) and raw routes (clientIpOf).
 */
export type TrustProxy = (address: string, hop: number) => boolean;

export function trustedProxiesOf(config: EnvironmentVars & { SESAME_TRUSTED_PROXIES?: string }): string[] {
  if (config.SESAME_TRUSTED_PROXIES === undefined) return isDevelopmentLike(config) ? ['loopback'] : [];
  return config.SESAME_TRUSTED_PROXIES.split(',')
    .map((v) => v.trim())
    .filter(Boolean);
}

export function compileTrust(proxies: string[]): TrustProxy {
  return proxies.length ? proxyaddr.compile(proxies) : () => false;
}

const trustNone: TrustProxy = () => false;

/** The caller's address as express computes req.ip, for handlers that run ahead of express. */
export function clientIpOf(req: IncomingMessage, trust: TrustProxy = trustNone): string {
  return normalizeIp(proxyaddr(req, trust));
}

/** The caller's address exactly as express's req.ip gives it (no normalizeIp), for raw routes that must match. */
export function requestIpOf(req: IncomingMessage, trust: TrustProxy = trustNone): string {
  return proxyaddr(req, trust);
}

/**
 * One spelling per caller for counting: an IPv4-mapped IPv6 address (::ffff:192.0.2.1, what a dual-stack
 * socket reports for an IPv4 peer) is its IPv4 address, so switching spellings does not reset a throttle.
 */
export function normalizeIp(ip: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  return mapped ? mapped[1]! : ip.toLowerCase();
}

/** Security headers of every response (fast routes reuse them: see fast-routes.ts). */
export const helmetOptions = { contentSecurityPolicy: false } as const;

/**
 * The Content-Security-Policy of every answer that is not a page: JSON, text, errors (a 404, a 413 from the
 * body parser, a 500). It forbids everything, so such an answer, opened as a document, runs nothing and can be
 * framed nowhere. Pages set their own policy (auth's pages/headers.ts), which takes precedence.
 */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/**
 * Sets API_CSP on each answer of `app` whose route set no policy of its own and which is not an HTML page: its
 * responses' writeHead (express gives every response of the app this prototype), so nothing is wrapped per request.
 */
export function defaultCsp(app: Express): void {
  const writeHead = app.response.writeHead;
  app.response.writeHead = function (this: ServerResponse, ...args: unknown[]) {
    if (
      !this.hasHeader('Content-Security-Policy') &&
      !String(this.getHeader('Content-Type') ?? '').startsWith('text/html')
    )
      this.setHeader('Content-Security-Policy', API_CSP);
    return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
  } as typeof app.response.writeHead;
}

/**
 * A bare express app with helmet's headers, API_CSP on non-page answers and the request context; services add
 * routes, then errorHandler.
 */
export function createHttpApp(
  logger: Logger,
  metrics?: ServiceMetrics,
  trust: TrustProxy = trustNone,
): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', trust);
  defaultCsp(app);
  lazyRequestLogger(app, logger);
  app.use(requestContext(logger, metrics, { lazyLog: true }));
  return app;
}

export interface Listening {
  server: Server;
  port: number;
  /** Stops accepting, lets in-flight requests finish, then closes idle keep-alive sockets. */
  close: (timeoutMs: number) => Promise<void>;
}

/**
 * Cuts slow clients (slowloris): the headers must arrive within 10 s and the whole request within 20 s, not
 * node's 60 s / 300 s. Checked every second (node's default: every 30 s).
 */
export const httpTimeouts = { headersTimeoutMs: 10_000, requestTimeoutMs: 20_000, checkIntervalMs: 1000 };

/**
 * TLS for a listener (`npm start -- --https`): PEM key and certificate chain; `ca` and `requestCert` ask
 * clients for a certificate (RFC 8705 client authentication) without refusing those that send none or one
 * the CA did not issue: the token endpoint decides what a certificate proves.
 */
export interface ListenTls {
  key: string;
  cert: string;
  ca?: string;
  requestCert?: boolean;
}

/** The oldest TLS version a listener accepts: 1.0 and 1.1 are refused (RFC 8996), 1.3 is allowed. */
export const TLS_MIN_VERSION = 'TLSv1.2';

/** Serves an express app (or any request listener, e.g. fastRouteListener around one); over TLS with `tls`. */
export function listen(
  app: Express | RequestListener,
  port: number,
  host = '0.0.0.0',
  timeouts = httpTimeouts,
  tls?: ListenTls,
): Promise<Listening> {
  return new Promise((resolve, reject) => {
    const options = {
      headersTimeout: timeouts.headersTimeoutMs,
      requestTimeout: timeouts.requestTimeoutMs,
      connectionsCheckingInterval: timeouts.checkIntervalMs,
    };
    const server: Server = (
      tls
        ? createHttpsServer(
            {
              ...options,
              key: tls.key,
              cert: tls.cert,
              minVersion: TLS_MIN_VERSION,
              ...(tls.ca ? { ca: tls.ca } : {}),
              requestCert: tls.requestCert ?? false,
              rejectUnauthorized: false,
            },
            app as RequestListener,
          )
        : createServer(options, app as RequestListener)
    ).listen(port, host);
    server.keepAliveTimeout = 65_000;
    server.once('error', reject);
    server.once('listening', () => {
      const bound = (server.address() as AddressInfo).port;
      resolve({
        server,
        port: bound,
        close: (timeoutMs) =>
          new Promise<void>((done) => {
            const force = setTimeout(() => {
              server.closeAllConnections();
              done();
            }, timeoutMs);
            force.unref();
            server.close(() => {
              clearTimeout(force);
              done();
            });
            server.closeIdleConnections();
          }),
      });
    });
  });
}
