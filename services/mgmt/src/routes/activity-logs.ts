import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '@sesame/oauth';
import type { PromiseClient } from '@sesame/platform';
import type { activitylogs } from '@sesame/proto';
import express from 'express';
import { z } from 'zod';
import { asyncRoute } from '../http/async-route';
import { type TenantApps, assertAppOfTenant } from '../principal';
import { activityLogJson } from '../support/activity-log-json';
import { fromLogService, logsRequest, malformedJson, messages } from './logs-query';

export const ACTIVITY_LOGS_PATH = '/api/v1/mgmt/activity-logs';
const INT32_MAX = 2_147_483_647;
const MAX_EPOCH_MS = 8_640_000_000_000_000;

const str = () => z.string({ required_error: messages.required, invalid_type_error: messages.string });
const int = () =>
  z
    .number({ required_error: messages.required, invalid_type_error: messages.number })
    .int('must be an integer')
    .min(0, 'must be >= 0');

/** Body of spec 4.6; limits of spec 8. */
export const activityLogsBody = z
  .object(
    {
      appId: str().min(1, 'must not be empty').max(200),
      credentialsId: str().min(1, 'must not be empty').max(200),
      timeStart: int().max(MAX_EPOCH_MS, 'is out of range'),
      timeEnd: int().max(MAX_EPOCH_MS, 'is out of range'),
      pageSize: int().min(1, 'must be >= 1').max(MAX_PAGE_SIZE, `must be <= ${MAX_PAGE_SIZE}`).optional(),
      skip: int().max(INT32_MAX, `must be <= ${INT32_MAX}`).optional(),
      userId: str().min(1, 'must not be empty').max(200).optional(),
      userAlias: str().min(1, 'must not be empty').max(200).optional(),
    },
    { required_error: 'is required', invalid_type_error: 'must be a JSON object' },
  )
  .refine((b) => b.timeStart < b.timeEnd, { path: ['timeEnd'], message: 'must be greater than timeStart' });

/**
 * POST /api/v1/mgmt/activity-logs (spec 4.6). Mounted behind the bearer-token middleware. Checks, in order:
 * the body, the body's credentialsId against the token (403), the app against the token's tenant (403).
 */
export function createActivityLogsRoutes(deps: {
  activityLogs: PromiseClient<activitylogs.ActivityLogsServiceClient>;
  apps: TenantApps;
}): express.Router {
  const router = express.Router();
  router.post(
    ACTIVITY_LOGS_PATH,
    express.json({ limit: '16kb' }),
    malformedJson,
    asyncRoute(async (req, res) => {
      const { request: body, principal } = logsRequest(activityLogsBody, req.body, res);
      await assertAppOfTenant(deps.apps, principal, body.appId);
      const result = await fromLogService(
        deps.activityLogs.queryActivityLogs({
          tenantId: principal.tenantId,
          appId: body.appId,
          timeStart: body.timeStart,
          timeEnd: body.timeEnd,
          pageSize: body.pageSize ?? DEFAULT_PAGE_SIZE,
          skip: body.skip ?? 0,
          userId: body.userId,
          userAlias: body.userAlias,
        }),
      );
      const activityLogs = result.activityLogs.map(activityLogJson);
      res.json({ activityLogs, total: activityLogs.length });
    }),
  );
  return router;
}
