import { authMethodTypes, flowStatuses, flowTypes } from '@sesame/flow-events';
import { MgmtError } from '@sesame/platform';
import { z } from 'zod';
import { parse } from '../../http/validate';
import type { FlowFilter, SupportPort } from '../../support/port';

/** The longest search string read (an email is at most 254 characters); longer is a 400, never a query. */
export const MAX_SEARCH = 320;
export const DEFAULT_PAGE = 50;

const id = z.string().min(1).max(256);
/** A typed address as auth keeps it in a flow record: trimmed, lower-case (issue 38). */
export const address = z.string().trim().toLowerCase().max(254).email('must be an email address');
/** An empty form field means "any". */
const optional = <T extends z.ZodTypeAny>(schema: T) =>
  z.preprocess((v) => (v === '' ? undefined : v), schema.optional());
/** A date (YYYY-MM-DD, UTC midnight), an ISO time, or epoch ms. */
const time = z
  .string()
  .max(40)
  .transform((v, ctx) => {
    const ms = /^\d{1,16}$/.test(v)
      ? Number(v)
      : /^\d{4}-\d{2}-\d{2}$/.test(v)
        ? Date.parse(`${v}T00:00:00Z`)
        : Date.parse(v);
    if (!Number.isFinite(ms)) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'must be a date, an ISO time or epoch ms' });
      return z.NEVER;
    }
    return ms;
  });

/** The filters of the Activity page and GET …/flows, one value each (a repeated parameter is a 400). */
export const flowQuery = z.object({
  app: optional(id),
  user: optional(id),
  status: optional(z.enum(flowStatuses)),
  flowType: optional(z.enum(flowTypes)),
  method: optional(z.enum(authMethodTypes)),
  from: optional(time),
  to: optional(time),
  cursor: optional(
    z
      .string()
      .max(512)
      .regex(/^[\w\-.~=]+$/, 'is not a cursor of this list'),
  ),
  limit: optional(z.coerce.number().int().min(1).max(200)),
  /** The sign-ins where this address was typed, with or without an account. */
  email: optional(address),
});
export type FlowQuery = z.infer<typeof flowQuery>;

/** Parses the filters; a `to` given as a date (YYYY-MM-DD) includes that whole day. */
export function parseFlowQuery(query: unknown): FlowQuery {
  const q = parse(flowQuery, query, 'query');
  const to = (query as Record<string, unknown> | undefined)?.to;
  if (q.to !== undefined && typeof to === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(to)) q.to += 86_400_000;
  if (q.from !== undefined && q.to !== undefined && q.from >= q.to) {
    throw new MgmtError(400, 'invalid_request', 'invalid query', { to: 'must be after from' });
  }
  return q;
}

/** The port's filter of a parsed query. */
export function filterOf(q: FlowQuery): FlowFilter {
  const filter: FlowFilter = {};
  if (q.app) filter.appId = q.app;
  if (q.user) filter.userId = q.user;
  if (q.status) filter.status = q.status;
  if (q.flowType) filter.flowType = q.flowType;
  if (q.method) filter.authMethodType = q.method;
  if (q.email) filter.attemptedEmail = q.email;
  if (q.from !== undefined) filter.from = q.from;
  if (q.to !== undefined) filter.to = q.to;
  return filter;
}

/** A search string: trimmed, one value, at most MAX_SEARCH characters (400 otherwise). */
export const searchQuery = z.object({
  query: z
    .string()
    .max(MAX_SEARCH)
    .transform((v) => v.trim()),
  app: optional(id),
});

/** The port, or 503 when this server has no support look-up configured. */
export function requireSupport(support: SupportPort | undefined): SupportPort {
  if (!support) {
    throw new MgmtError(503, 'support_unavailable', 'support look-up is not configured on this server');
  }
  return support;
}
