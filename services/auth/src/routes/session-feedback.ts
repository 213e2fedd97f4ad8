import type { FlowEvents } from '@sesame/flow-events';
import { type Logger, MgmtError } from '@sesame/platform';
import express, { type Request, type Response, type Router } from 'express';
import { z } from 'zod';
import type { AuthPeers } from '../peers';
import { AliasTakenError, confirmMembership } from '../users/confirm-login';
import type { UserStore } from '../users/users.repository';
import { loginOfToken, readBearer } from './session-feedback-token';

export const SESSION_FEEDBACK_PATH = '/session-feedback';

/** Aliases go into activity records (userAlias, at most 200 characters) and the bound_to parameter. */
const MAX_ALIAS = 200;
const bodySchema = z
  .object({
    alias: z
      .string({ invalid_type_error: 'must be a string' })
      .min(1, 'must not be empty')
      .max(MAX_ALIAS, `must be at most ${MAX_ALIAS} characters`)
      .regex(/^[^\p{Cc}]+$/u, 'must not contain control characters')
      // " alice" and "alice" would be two aliases nobody can tell apart in a log or a bound_to parameter.
      .refine((a) => a.trim() === a, 'must not start or end with white space')
      .optional(),
  })
  .strict();

export interface SessionFeedbackDeps {
  peers: Pick<AuthPeers, 'introspectAccessToken' | 'getClient'>;
  users: Pick<UserStore, 'memberships'>;
  events: FlowEvents;
  logger: Logger;
}

const badRequest = (message: string, fields?: Record<string, string>) =>
  new MgmtError(400, 'invalid_request', message, fields);

/** The JSON body: absent or empty means `{}`; anything else must be a JSON object of the schema. */
function readBody(req: Request): z.infer<typeof bodySchema> {
  const raw = Buffer.isBuffer(req.body) ? req.body.toString('utf8') : '';
  if (raw.trim() === '') return {};
  if (!req.is('application/json')) throw badRequest('Content-Type must be application/json');
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw badRequest('the body is not valid JSON');
  }
  const result = bodySchema.safeParse(parsed);
  if (result.success) return result.data;
  const fields = Object.fromEntries(result.error.issues.map((i) => [i.path.join('.') || 'body', i.message]));
  throw badRequest('the body must be a JSON object {"alias"?: string}', fields);
}

/**
 * POST {auth_url}/session-feedback (ARCHITECTURE §7): the RP confirms the login its access token came from.
 * Read top down: the bearer token (401, RFC 6750), the body (400), then the confirmation (users/confirm-login.ts:
 * membership confirmed, the login's passkey or device bound to the app, the alias set; 409 when another user of
 * the app has the alias), and the flow event rp_feedback_provided on the login's activity record, with the
 * alias. Repeating it is harmless. Every answer carries Cache-Control no-store.
 */
async function sessionFeedback(deps: SessionFeedbackDeps, req: Request, res: Response): Promise<void> {
  const token = await loginOfToken(deps, readBearer(req.get('authorization')));
  const body = readBody(req);
  const { login } = token;
  let confirmed: Awaited<ReturnType<typeof confirmMembership>>;
  try {
    confirmed = await confirmMembership(deps.users.memberships, {
      tenantId: token.tenantId,
      appId: token.appId,
      userId: token.userId,
      // A passkey login binds its passkey; any other login binds its device.
      ...(login.authenticatorId ? { authenticatorId: login.authenticatorId } : { deviceId: login.deviceId }),
      ...(body.alias !== undefined ? { alias: body.alias } : {}),
      at: login.loginAt,
    });
  } catch (err) {
    if (err instanceof AliasTakenError) {
      throw new MgmtError(409, 'alias_taken', 'the alias belongs to another user of this application', {
        alias: 'is taken by another user of this application',
      });
    }
    throw err;
  }
  await deps.events
    .record({
      flowId: login.flowId,
      tenantId: token.tenantId,
      appId: token.appId,
      action: 'rp_feedback_provided',
      clientIp: req.ip ?? '0.0.0.0',
      userId: token.userId,
      ...(confirmed.alias ? { userAlias: confirmed.alias } : {}),
    })
    .catch((err: unknown) => deps.logger.error({ err, flowId: login.flowId }, 'flow event refused'));
  res.status(200).json({ status: 'success' });
}

export function mountSessionFeedback(router: Router, deps: SessionFeedbackDeps): void {
  const raw = express.raw({ type: () => true, limit: '4kb' });
  router.post(SESSION_FEEDBACK_PATH, (req, res, next) => {
    res.set({ 'Cache-Control': 'no-store', Pragma: 'no-cache' });
    raw(req, res, (err?: unknown) => {
      if (err) return next(badRequest('the body is too large or unreadable'));
      sessionFeedback(deps, req, res).catch(next);
    });
  });
  router.all(SESSION_FEEDBACK_PATH, (_req, res) => {
    res
      .set({ 'Cache-Control': 'no-store', Allow: 'POST' })
      .status(405)
      .json({
        status: 'error',
        error: { code: 'method_not_allowed', message: '/session-feedback accepts POST only' },
      });
  });
}
