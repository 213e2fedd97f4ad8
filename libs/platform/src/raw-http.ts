import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { histogramChild } from './histogram-child';
import type { ServiceMetrics } from './metrics';

/**
 * The pieces every answer written below express shares with the express ones (fast routes, raw routes, the
 * raw POST /token and GET /authorize): the request id rule, the one-write response (its security headers are
 * securityHeaders() of fast-routes.ts, helmet's as createHttpApp sets them), the bounded body read and the
 * duration metric. Express routes get their request id from requestContext (http.ts), by the same rule.
 */

/** An X-Request-Id a caller may choose: short, and nothing a log line or header could be confused by. */
export const REQUEST_ID = /^[\w.-]{1,128}$/;

/** The caller's X-Request-Id when it is sane, else a new one. */
export function requestIdOf(incoming: unknown): string {
  return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/** The path of a request target, without its query (raw and fast routes match exact paths). */
export function pathOf(url: string | undefined): string {
  const target = url ?? '/';
  const query = target.indexOf('?');
  return query === -1 ? target : target.slice(0, query);
}

/**
 * Writes a whole answer at once: the status and the headers as one flat [name, value, …] list (writeHead
 * takes it without per-header bookkeeping; the list is the caller's and gets Content-Length appended), then
 * the body in the same write. `latin1` sends a string made from a Buffer byte for byte; `head` sends no body.
 */
export function sendRaw(
  res: ServerResponse,
  status: number,
  headers: string[],
  body: string,
  encoding: 'utf8' | 'latin1' = 'utf8',
  head = false,
): void {
  headers.push('Content-Length', String(encoding === 'latin1' ? body.length : Buffer.byteLength(body)));
  res.writeHead(status, headers);
  if (head) res.end();
  else res.end(body, encoding);
}

/**
 * The request duration metric of one raw route, as requestContext records it for express routes. The labelled
 * series is looked up once per method and status, not hashed per request (histogram-child.ts). A no-op without
 * metrics.
 */
export function durationRecorder(
  metrics: ServiceMetrics | undefined,
  route: string,
): (method: string, status: number, started: bigint) => void {
  if (!metrics) return () => {};
  const timers = new Map<string, Map<number, { observe(seconds: number): void }>>();
  return (method, status, started) => {
    let byStatus = timers.get(method);
    if (!byStatus) {
      byStatus = new Map();
      timers.set(method, byStatus);
    }
    let timer = byStatus.get(status);
    if (!timer) {
      timer = histogramChild(metrics.httpDuration, { method, route, status: String(status) });
      byStatus.set(status, timer);
    }
    timer.observe(Number(process.hrtime.bigint() - started) / 1e9);
  };
}

/**
 * Reads a (small) body as UTF-8, refusing more than `limit` bytes — by Content-Length before reading, or as
 * it arrives — with `errors.tooLarge()`; a stream error becomes `errors.unreadable(err)`. Hand-rolled rather
 * than body-parser: the raw routes are the hottest paths and need none of its generality.
 */
export function readRawBody(
  req: IncomingMessage,
  limit: number,
  errors: { tooLarge: () => Error; unreadable: (err: Error) => Error },
): Promise<string> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) {
    req.resume();
    return Promise.reject(errors.tooLarge());
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    // Each listener settles on its own (no shared named helper: tsx, as npm start runs, names one per request).
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (settled) return;
      if (size > limit) {
        settled = true;
        reject(errors.tooLarge());
      } else chunks.push(chunk);
    });
    req.on('end', () => {
      if (settled) return;
      settled = true;
      resolve(chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8'));
    });
    req.on('error', (err) => {
      if (settled) return;
      settled = true;
      reject(errors.unreadable(err));
    });
  });
}
