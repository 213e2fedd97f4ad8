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
import { CIBA_GRANT_TYPE, selectGrant } from './checks/select-grant';
import { authorizationCodeGrant } from './grants/authorization-code';
import { cibaGrant } from './grants/ciba';
import { clientCredentialsGrant } from './grants/client-credentials';
import type { GrantHandler, TokenAnswer } from './token-request';

const REQUEST_ID = /^[\w.-]{1,128}$/;
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
  const handlers: Record<string, GrantHandler> = {
    authorization_code: authorizationCodeGrant(deps),
    [CIBA_GRANT_TYPE]: cibaGrant(deps),
    client_credentials: clientCredentialsGrant(deps),
  };
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

  async function answer(req: IncomingMessage, seen: { clientId?: string }): Promise<TokenAnswer> {
    checkFormContentType(req.headers['content-type']);
    const request = readFormParams(await readBody(req), req.headers.authorization, clientIpOf(req, trust));
    seen.clientId = request.params.client_id;
    return selectGrant(request, handlers)(request);
  }

  return (req: IncomingMessage, res: ServerResponse): void => {
    const started = process.hrtime.bigint();
    const incoming = (req as { id?: string }).id ?? req.headers['x-request-id'];
    const requestId = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    const seen: { clientId?: string } = {};
    const send = (status: number, body: Record<string, unknown>, extra: Record<string, string> = {}) => {
      const json = JSON.stringify(body);
      const headers = [
        ...baseHeaders,
        'X-Request-Id',
        requestId,
        'Content-Length',
        String(Buffer.byteLength(json)),
      ];
      for (const name in extra) headers.push(name, extra[name]!);
      res.writeHead(status, headers);
      res.end(json);
      observe(status, started);
    };
    const origin = req.headers.origin;
    const withCors = (headers: Record<string, string>) =>
      origin === undefined
        ? Promise.resolve(headers)
        : corsHeaders(deps.directory, seen.clientId, origin).then((cors) => ({ ...headers, ...cors }));
    answer(req, seen)
      .then(
        (ok) => withCors({}).then((headers) => send(ok.status, ok.body, headers)),
        (err: unknown) => {
          if (err instanceof HttpError)
            return withCors(err.headers).then((headers) => send(err.status, err.body(), headers));
          if (outageOf(err)) {
            deps.logger.warn({ err, reqId: requestId }, '/token failed: a store or peer is unavailable');
            return send(
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
        deps.logger.error({ err, reqId: requestId }, 'unhandled error in /token');
        send(500, { error: 'server_error', error_description: 'internal error' });
      });
  };
}
