import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  HttpError,
  OAuthError,
  OUTAGE_RETRY_AFTER_S,
  type ServiceMetrics,
  clientIpOf,
  compileTrust,
  durationRecorder,
  outageOf,
  readRawBody,
  requestIdOf,
  securityHeaders,
  sendRaw,
  trustedProxiesOf,
} from '@sesame/platform';
import type { TokenDeps } from '../../deps';
import { checkFormContentType } from './checks/check-content-type';
import { corsHeaders } from './checks/cors';
import { readFormParams } from './checks/read-form-params';
import { selectGrant } from './checks/select-grant';
import { grantHandlers } from './grants/grant-handlers';
import type { TokenAnswer } from './token-request';

/** The form body of /token is small; more is refused with 413 before or while reading. */
const MAX_BODY_BYTES = 16 * 1024;
const bodyErrors = {
  tooLarge: () => new OAuthError('invalid_request', 'request body too large', 413),
  unreadable: (err: Error) =>
    new OAuthError('invalid_request', `request body could not be read: ${err.message}`),
};

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
  const observe = durationRecorder(metrics, '/token');

  async function answer(x: Exchange): Promise<TokenAnswer> {
    const { req } = x;
    checkFormContentType(req.headers['content-type']);
    const request = readFormParams(
      await readRawBody(req, MAX_BODY_BYTES, bodyErrors),
      req.headers.authorization,
      clientIpOf(req, trust),
    );
    x.clientId = request.params.client_id;
    return selectGrant(request, handlers)(request);
  }

  function send(x: Exchange, status: number, body: Record<string, unknown>, extra?: Record<string, string>) {
    const headers = [...baseHeaders, 'X-Request-Id', x.requestId];
    if (extra) for (const name in extra) headers.push(name, extra[name]!);
    sendRaw(x.res, status, headers, JSON.stringify(body));
    observe('POST', status, x.started);
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
    // Under express (hosts without raw routes) requestContext has set req.id by the same rule.
    const incoming = (req as { id?: string }).id ?? req.headers['x-request-id'];
    const x: Exchange = {
      req,
      res,
      started: process.hrtime.bigint(),
      requestId: requestIdOf(incoming),
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
