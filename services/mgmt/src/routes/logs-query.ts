import { GrpcStatus, MgmtError, isGrpcStatus } from '@sesame/platform';
import type { ErrorRequestHandler, NextFunction, Request, RequestHandler, Response } from 'express';
import type { ZodError } from 'zod';

/** Shared by the activity-logs and admin-logs endpoints: errors in the management error object (ARCHITECTURE §7). */

/** Every violated rule becomes a 400 naming each offending field; the message names the first. */
export function invalidRequest(error: ZodError): MgmtError {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const field = issue.path.length ? issue.path.join('.') : 'body';
    fields[field] ??= issue.message;
  }
  const [field, reason] = Object.entries(fields)[0] ?? ['body', 'is invalid'];
  return new MgmtError(400, 'invalid_request', `${field} ${reason}`, fields);
}

/** A body that is not JSON is the caller's fault: a 400 in the management shape, not the OAuth one. */
export const malformedJson: ErrorRequestHandler = (err, _req, _res, next) => {
  if (err && typeof err === 'object' && (err as { type?: unknown }).type === 'entity.parse.failed') {
    next(new MgmtError(400, 'invalid_request', 'body is not valid JSON', { body: 'is not valid JSON' }));
    return;
  }
  next(err);
};

/** The log store being unreachable is temporary and says so; anything else stays a server error. */
export function fromGrpc(err: unknown): unknown {
  if (isGrpcStatus(err, GrpcStatus.UNAVAILABLE) || isGrpcStatus(err, GrpcStatus.DEADLINE_EXCEEDED)) {
    return new MgmtError(503, 'temporarily_unavailable', 'logs are temporarily unavailable; retry later');
  }
  if (isGrpcStatus(err, GrpcStatus.INVALID_ARGUMENT)) {
    return new MgmtError(400, 'invalid_request', (err as { details?: string }).details ?? 'invalid request');
  }
  return err;
}

/** Express 4 does not catch rejected promises: pass them to the error middleware. */
export const handle =
  (fn: (req: Request, res: Response) => Promise<void>): RequestHandler =>
  (req: Request, res: Response, next: NextFunction) => {
    fn(req, res).catch(next);
  };

/** zod messages in the words of the API. */
export const messages = {
  required: 'is required',
  string: 'must be a string',
  number: 'must be a number',
} as const;
