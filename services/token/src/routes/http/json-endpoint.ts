import type { IncomingMessage, ServerResponse } from 'node:http';
import { type PresentedCertificate, clientCertificateOf } from '@sesame/oauth';
import {
  HttpError,
  OAuthError,
  OUTAGE_RETRY_AFTER_S,
  type ServiceMetrics,
  clientIpOf,
  compileTrust,
  durationRecorder,
  outageOf,
  prepareHead,
  readRawBody,
  requestIdOf,
  securityHeaders,
  sendRaw,
  trustedProxiesOf,
  writePreparedJsonHead,
} from '@sesame/platform';
import type { TokenDeps } from '../../deps';
import { corsHeaders } from '../token/checks/cors';

/** The form bodies of the token endpoints are small; more is refused with 413 before or while reading. */
const MAX_BODY_BYTES = 16 * 1024;
const bodyErrors = {
  tooLarge: () => new OAuthError('invalid_request', 'request body too large', 413),
  unreadable: (err: Error) =>
    new OAuthError('invalid_request', `request body could not be read: ${err.message}`),
};

/** The request body of a token endpoint, at most 16 KB (413 invalid_request past that). */
export const readBody = (req: IncomingMessage): Promise<string> =>
  readRawBody(req, MAX_BODY_BYTES, bodyErrors);

/** Spec 4.1 and 7: on every answer of /token (and the other token endpoints) — successes and errors alike. */
export const noStoreHeaders = [
  'Content-Type',
  'application/json; charset=utf-8',
  'Cache-Control',
  'no-store',
  'Pragma',
  'no-cache',
];

/**
 * CORS of an endpoint that takes a Bearer token and no cookie (/userinfo): any origin may read the answer,
 * since nothing ambient authorizes it; the Bearer challenge is readable too.
 */
export const ANY_ORIGIN = Object.freeze({
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': 'WWW-Authenticate, DPoP-Nonce',
});

/** What an endpoint answers: the status and JSON body (errors are thrown as OAuthError instead). */
export interface JsonAnswer {
  status: number;
  body: Record<string, unknown>;
  headers?: Record<string, string>;
}

/** One request in flight, as the endpoint's `answer` sees it. */
export interface Exchange {
  req: IncomingMessage;
  /** The caller's address (X-Forwarded-For from a trusted proxy, else the socket's). */
  clientIp: string;
  /** The client_id of the request once read: a public client's browser origin may then read the answer. */
  clientId: string | undefined;
  /** The client certificate (RFC 8705): the TLS socket's, or the trusted terminator header's. */
  certificate(): PresentedCertificate | undefined;
}

interface InFlight extends Exchange {
  res: ServerResponse;
  started: bigint;
  requestId: string;
  origin: string | undefined;
}

/**
 * A JSON endpoint of token (/token, /revoke, /introspect, /userinfo) as a node:http handler. Hosts run it ahead
 * of express (a raw route); it brings what express would add: the security headers and no-store, a request
 * id, the duration metric, CORS for a public client's own origins, and error rendering (HttpError as its
 * body with its headers, a store or peer outage 503 temporarily_unavailable with Retry-After, anything else
 * a logged, generic server_error).
 */
export function jsonEndpoint(
  deps: Pick<TokenDeps, 'config' | 'directory' | 'logger'>,
  route: { method: string; path: string; anyOrigin?: boolean },
  answer: (x: Exchange) => Promise<JsonAnswer>,
  metrics?: ServiceMetrics,
) {
  const trust = compileTrust(trustedProxiesOf(deps.config));
  const forwarded = {
    cert: deps.config.SESAME_TLS_CLIENT_CERT_HEADER,
    verify: deps.config.SESAME_TLS_CLIENT_VERIFY_HEADER,
  };
  const baseHeaders = [...securityHeaders().flat(), ...noStoreHeaders];
  // Validated once: an answer without headers of its own (every grant's 200) writes them without node
  // checking each name and value again (writePreparedJsonHead).
  const prepared = prepareHead(baseHeaders);
  const observe = durationRecorder(metrics, route.path);

  function send(x: InFlight, status: number, body: Record<string, unknown>, extra?: Record<string, string>) {
    const text = JSON.stringify(body);
    if (extra === undefined) {
      writePreparedJsonHead(x.res, status, prepared, x.requestId, Buffer.byteLength(text));
      x.res.end(text);
    } else {
      const headers = [...baseHeaders, 'X-Request-Id', x.requestId];
      for (const name in extra) headers.push(name, extra[name]!);
      sendRaw(x.res, status, headers, text);
    }
    observe(route.method, status, x.started);
  }

  /** send() with CORS; without an Origin (every non-browser caller) in the same tick, with no lookup. */
  function reply(x: InFlight, status: number, body: Record<string, unknown>, extra?: Record<string, string>) {
    if (x.origin === undefined) return send(x, status, body, extra);
    if (route.anyOrigin) return send(x, status, body, { ...extra, ...ANY_ORIGIN });
    return corsHeaders(deps.directory, x.clientId, x.origin).then((cors) =>
      send(x, status, body, { ...extra, ...cors }),
    );
  }

  // Per request: one InFlight and the promise callbacks; the functions above are made once.
  return (req: IncomingMessage, res: ServerResponse): void => {
    const incoming = (req as { id?: string }).id ?? req.headers['x-request-id'];
    const x: InFlight = {
      req,
      res,
      clientIp: clientIpOf(req, trust),
      started: process.hrtime.bigint(),
      requestId: requestIdOf(incoming),
      origin: req.headers.origin,
      clientId: undefined,
      // bind, not an arrow: under tsx (npm start) every arrow in an object literal is also given its name per request.
      certificate: clientCertificateOf.bind(undefined, req, forwarded),
    };
    answer(x)
      .then(
        (ok) => reply(x, ok.status, ok.body, ok.headers),
        (err: unknown) => {
          if (err instanceof HttpError) return reply(x, err.status, err.body(), err.headers);
          if (outageOf(err)) {
            deps.logger.warn(
              { err, reqId: x.requestId },
              `${route.path} failed: a store or peer is unavailable`,
            );
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
        deps.logger.error({ err, reqId: x.requestId }, `unhandled error in ${route.path}`);
        send(x, 500, { error: 'server_error', error_description: 'internal error' });
      });
  };
}
