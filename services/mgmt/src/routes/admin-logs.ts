import type { PromiseClient } from '@sesame/platform';
import type { events, activitylogs } from '@sesame/proto';
import express from 'express';
import { z } from 'zod';
import { asyncRoute } from '../http/async-route';
import { fromLogService, logsRequest, messages } from './logs-query';

export const ADMIN_LOGS_PATH = '/api/vbeta/mgmt/admin-logs';
export const MAX_SPAN_MS = 30 * 24 * 3600 * 1000;
export const adminLogsLimits = { defaultTake: 300, maxTake: 500, maxSkip: 1000 } as const;
/** The `status` of a successful admin-logs response (the spec shows the member, not its value). */
export const SUCCESS_STATUS = 'success';

/** A query parameter holding a non-negative integer, given once. */
const intParam = (min: number, max: number) =>
  z
    .string({ required_error: messages.required, invalid_type_error: 'must be given once, as an integer' })
    .regex(/^\d{1,16}$/, 'must be a non-negative integer')
    .transform(Number)
    .pipe(z.number().min(min, `must be >= ${min}`).max(max, `must be <= ${max}`));

/** Query of spec 4.7; limits of spec 8. */
export const adminLogsQuery = z
  .object({
    fromTime: intParam(0, 8_640_000_000_000_000),
    toTime: intParam(0, 8_640_000_000_000_000),
    credentialsId: z
      .string({ required_error: messages.required, invalid_type_error: 'must be given once' })
      .min(1, 'must not be empty')
      .max(200),
    skip: intParam(0, adminLogsLimits.maxSkip).optional(),
    take: intParam(1, adminLogsLimits.maxTake).optional(),
  })
  .superRefine((q, ctx) => {
    if (q.toTime <= q.fromTime)
      ctx.addIssue({ code: 'custom', path: ['toTime'], message: 'must be greater than fromTime' });
    else if (q.toTime - q.fromTime > MAX_SPAN_MS)
      ctx.addIssue({ code: 'custom', path: ['toTime'], message: 'must be at most 30 days after fromTime' });
  });

/** One admin event of spec 2.5; timestamp is a number, epoch ms (ARCHITECTURE §7). */
export const adminEventJson = ({ timestampMs, data, ...event }: events.AdminEvent) => ({
  ...event,
  timestamp: timestampMs,
  data: data ?? {},
});

/** GET /api/vbeta/mgmt/admin-logs (spec 4.7). Mounted behind the bearer-token middleware. */
export function createAdminLogsRoutes(deps: {
  activityLogs: PromiseClient<activitylogs.ActivityLogsServiceClient>;
}): express.Router {
  const router = express.Router();
  router.get(
    ADMIN_LOGS_PATH,
    asyncRoute(async (req, res) => {
      const { request: q, principal } = logsRequest(adminLogsQuery, req.query, res);
      const page = await fromLogService(
        deps.activityLogs.queryAdminLogs({
          tenantId: principal.tenantId,
          fromTime: q.fromTime,
          toTime: q.toTime,
          skip: q.skip ?? 0,
          take: q.take ?? adminLogsLimits.defaultTake,
        }),
      );
      res.json({
        status: SUCCESS_STATUS,
        data: { count: page.events.length, total: page.total, events: page.events.map(adminEventJson) },
      });
    }),
  );
  return router;
}
