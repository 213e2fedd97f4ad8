import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  HttpError,
  OUTAGE_RETRY_AFTER_S,
  type ServiceMetrics,
  clientIpOf,
  compileTrust,
  outageOf,
  securityHeaders,
  trustedProxiesOf,
} from '@sesame/platform';
import type { TokenDeps } from '../../deps';
import { checkFormContentType } from './checks/check-content-type';
import { corsHeaders } from './checks/cors';
import { readBody } from './checks/read-body';
import { readFormParams } from './checks/read-form-params';
import { selectGrant } from './checks/select-grant';
import { grantHandlers } from './grants/grant-handlers';
import type { TokenAnswer } from './token-request';

const REQUEST_ID = /^[\w.-]{1,128}$/;

/** One /token request in flight. */
interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
  started: bigint;
  requestId: string;
  origin: string | undefined;
  /** The client_id parameter once the form is read (for CORS on the answer). */
  clientId: string | undefined;
}

/** Spec 4.1 and 7: on every answer of /token — successes, protocol errors, malformed bodies, server errors. */
export const noStoreHeaders = [
  'Content-Type',
  'application/json; charset=utf-8',
  'Cache-Control',
  'no-store',
  'Pragma',
  'no-cache',
];

/**
 * POST {auth_url}/token (spec 4.1) as a node:http handler, read top down: form body only, parameters once
 * each, then the grant's handler with its own ordered checks. Hosts run it ahead of express (a raw route);
 * it brings what express would add: the security headers, a request id, the duration metric, and error
 * rendering (OAuthError as its RFC body, a store or peer outage 503 temporarily_unavailable with Retry-After,
 * anything else a logged, generic server_error).
 */
export function tokenEndpoint(deps: TokenDeps, metrics?: ServiceMetrics) {
  const handlers = grantHandlers(deps);
  const trust = compileTrust(trustedProxiesOf(deps.config));
  const baseHeaders = [...securityHeaders().flat(), ...noStoreHeaders];
  const timers = new Map<number, { observe(seconds: number): void }>();
  const observe = (status: number, started: bigint) => {
    if (!metrics) return;
    let timer = timers.get(status);
    if (!timer) {
      timer = metrics.httpDuration.labels({ method: 'POST', route: '/token', status: String(status) });
      timers.set(status, timer);
    }
    timer.observe(Number(process.hrtime.bigint() - started) / 1e9);
  };

  async function answer(x: Exchange): Promise<TokenAnswer> {
    const { req } = x;
    checkFormContentType(req.headers['content-type']);
    const request = readFormParams(await readBody(req), req.headers.authorization, clientIpOf(req, trust));
    x.clientId = request.params.client_id;
    return selectGrant(request, handlers)(request);
  }

  function send(x: Exchange, status: number, body: Record<string, unknown>, extra?: Record<string, string>) {
    const json = JSON.stringify(body);
    const headers = [
      ...baseHeaders,
      'X-Request-Id',
      x.requestId,
      'Content-Length',
      String(Buffer.byteLength(json)),
    ];
    if (extra) for (const name in extra) headers.push(name, extra[name]!);
    x.res.writeHead(status, headers);
    x.res.end(json);
    observe(status, x.started);
  }

  /** send() with CORS; without an Origin (every non-browser caller) in the same tick, with no lookup. */
  function reply(x: Exchange, status: number, body: Record<string, unknown>, extra?: Record<string, string>) {
    if (x.origin === undefined) return send(x, status, body, extra);
    return corsHeaders(deps.directory, x.clientId, x.origin).then((cors) =>
      send(x, status, body, { ...extra, ...cors }),
    );
  }

  // Per request: one Exchange and the promise callbacks; the functions above are made once.
  return (req: IncomingMessage, res: ServerResponse): void => {
    const incoming = (req as { id?: string }).id ?? req.headers['x-request-id'];
    const x: Exchange = {
      req,
      res,
      started: process.hrtime.bigint(),
      requestId: typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID(),
      origin: req.headers.origin,
      clientId: undefined,
    };
    answer(x)
      .then(
        (ok) => reply(x, ok.status, ok.body),
        (err: unknown) => {
          if (err instanceof HttpError) return reply(x, err.status, err.body(), err.headers);
          if (outageOf(err)) {
            deps.logger.warn({ err, reqId: x.requestId }, '/token failed: a store or peer is unavailable');
            return send(
              x,
              503,
              {
                error: 'temporarily_unavailable',
                error_description: 'the service is unavailable; retry later',
              },
              { 'Retry-After': String(OUTAGE_RETRY_AFTER_S) },
            );
          }
          throw err;
        },
      )
      .catch((err: unknown) => {
        metrics?.errors.inc({ kind: 'http' });
        deps.logger.error({ err, reqId: x.requestId }, 'unhandled error in /token');
        send(x, 500, { error: 'server_error', error_description: 'internal error' });
      });
  };
}
