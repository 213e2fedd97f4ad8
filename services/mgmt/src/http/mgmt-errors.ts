import { HttpError, MgmtError, OUTAGE_RETRY_AFTER_S, outageOf } from '@sesame/platform';
import type { ErrorRequestHandler, RequestHandler } from 'express';

/** Unknown path under an API prefix: the management error object, not the host's generic 404. */
export const notFound: RequestHandler = (_req, _res, next) => {
  // Fixed text: the method and path are the caller's input, and an error message never repeats input.
  next(new MgmtError(404, 'not_found', 'no such endpoint'));
};

/**
 * Every admin and management answer carries tenant data, secrets (client secrets, API secrets shown once)
 * or personal data (activity logs, users): no cache along the way may keep it.
 */
export const noStore: RequestHandler = (_req, res, next) => {
  res.set({ 'Cache-Control': 'no-store', Pragma: 'no-cache' });
  next();
};

/**
 * Every error under the admin and management prefixes leaves in the ARCHITECTURE §7 shape: protocol errors
 * as they are, malformed JSON as a 400, a store or peer outage as 503 with Retry-After, anything else logged
 * and answered as a generic server_error.
 */
export const mgmtErrors: ErrorRequestHandler = (err, req, res, _next) => {
  let out: HttpError;
  if (err instanceof HttpError) out = err;
  else if (typeof err?.status === 'number' && err.status >= 400 && err.status < 500) {
    out =
      err.type === 'entity.too.large'
        ? new MgmtError(413, 'invalid_request', 'request body too large')
        : new MgmtError(400, 'invalid_request', 'malformed JSON body');
  } else if (outageOf(err)) {
    req.log?.warn({ err }, 'request failed: a store or peer is unavailable');
    out = new MgmtError(503, 'temporarily_unavailable', 'the service is unavailable; retry later');
    out.headers = { 'Retry-After': String(OUTAGE_RETRY_AFTER_S) };
  } else {
    req.log?.error({ err }, 'unhandled error');
    out = new MgmtError(500, 'server_error', 'internal error');
  }
  res.status(out.status).set(out.headers).json(out.body());
};
