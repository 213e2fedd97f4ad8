import { GrpcStatus, MgmtError, isGrpcStatus } from '@sesame/platform';
import type { ErrorRequestHandler, Response } from 'express';
import type { ZodError, ZodType, ZodTypeDef, z } from 'zod';
import { type MgmtPrincipal, assertSameCredentials, principalOf } from '../principal';

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

/**
 * A log query's request (body or query string): parsed with `schema` (400 naming each offending field), and
 * its credentialsId checked against the bearer token's (403). Returns it with the token's principal.
 */
export function logsRequest<S extends ZodType<{ credentialsId: string }, ZodTypeDef, unknown>>(
  schema: S,
  value: unknown,
  res: Response,
): { request: z.infer<S>; principal: MgmtPrincipal } {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw invalidRequest(parsed.error);
  const principal = principalOf(res);
  assertSameCredentials(principal, parsed.data.credentialsId);
  return { request: parsed.data, principal };
}

/** The answer of the log service, its failures as management errors (fromGrpc). */
export const fromLogService = <T>(call: Promise<T>): Promise<T> =>
  call.catch((err: unknown) => {
    throw fromGrpc(err);
  });

/** zod messages in the words of the API. */
export const messages = {
  required: 'is required',
  string: 'must be a string',
  number: 'must be a number',
} as const;
