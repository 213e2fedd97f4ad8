import { MgmtError } from '@sesame/platform';
import { type Request, type Response, Router } from 'express';
import { z } from 'zod';
import { authorize } from '../../admins/authorize';
import { adminActivity } from '../../events/admin-events';
import { asyncRoute } from '../../http/async-route';
import { parse } from '../../http/validate';
import type { AdminRouteDeps } from '../../use-cases/deps';
import { type ExportFormat, exportEventData, streamExport } from '../../use-cases/people/export';
import {
  DEFAULT_PAGE,
  filterOf,
  parseFlowQuery,
  requireSupport,
  searchQuery,
} from '../../use-cases/people/query';
import { flowDetail, summarize } from '../../use-cases/people/summary';
import { requireTenant } from '../../use-cases/views';
import { adminOf, adminPrincipalOf } from './admin-auth';
import { tenantAdminRoute } from './admin-route';

const T = '/api/v1/admin/tenants/:tenantId';
const pathId = z.string().min(1).max(256);
const format = z.object({ format: z.enum(['csv', 'json']) });

/**
 * The admin API's support routes (the console's Users and Activity pages, for scripts and the CLI), all on the
 * path's tenant and nothing else:
 * - GET …/users?query=Q[&app=APP] → `{users: [{userId, email, matchedBy}]}` (email exact and case-insensitive,
 *   user ID, or alias);
 * - GET …/users/:userId → `{userId, email, devices, memberships}` (404 user_not_found);
 * - GET …/flows?app&user&status&flowType&method&from&to&limit&cursor → `{flows: [summary], nextCursor?}`,
 *   newest first, each with its outcome in words;
 * - GET …/flows/export?format=csv|json&filters → the filtered set, streamed;
 * - GET …/flows/:flowId → `{flow, timeline, authenticatingDevice, record}` (404 flow_not_found);
 * - GET …/flows/:flowId/export → the record's raw JSON as a download.
 * Each export publishes administrator_export_event_data (multipeEvents, flowId as spec 2.5 spells them).
 * Without a support look-up configured every one answers 503 support_unavailable.
 */
export function supportRoutes(deps: AdminRouteDeps): Router {
  const router = Router();
  router.use(
    tenantAdminRoute(
      deps,
      { method: 'get', path: `${T}/users`, action: 'users.read' },
      async ({ req, tenant }) => {
        const q = parse(searchQuery, req.query, 'query');
        const support = requireSupport(deps.support);
        return { users: q.query ? await support.findUsers(tenant.tenantId, q.query, q.app) : [] };
      },
    ),
    tenantAdminRoute(
      deps,
      {
        method: 'get',
        path: `${T}/users/:userId`,
        action: 'users.read',
        params: z.object({ userId: pathId }),
      },
      async ({ params, tenant }) => {
        const user = await requireSupport(deps.support).userDetail(tenant.tenantId, params.userId);
        if (!user) throw new MgmtError(404, 'user_not_found', 'no such user in this tenant');
        return user;
      },
    ),
    tenantAdminRoute(
      deps,
      { method: 'get', path: `${T}/flows`, action: 'activity.read' },
      async ({ req, tenant }) => {
        const q = parseFlowQuery(req.query);
        const page = await requireSupport(deps.support).listFlows(
          tenant.tenantId,
          filterOf(q),
          q.limit ?? DEFAULT_PAGE,
          q.cursor,
        );
        return {
          flows: page.flows.map((f) => summarize(f)),
          ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
        };
      },
    ),
  );

  /** The export routes stream, so they authorize and publish here rather than through adminRoute. */
  const exporting = (fn: (req: Request, res: Response, tenantId: string) => Promise<void>) =>
    asyncRoute(async (req, res) => {
      await authorize(deps.admins, adminPrincipalOf(res), 'events.export', req.params.tenantId);
      const tenant = await requireTenant(deps.dir, req.params.tenantId!);
      await fn(req, res, tenant.tenantId);
    });
  const publishExport = (res: Response, tenantId: string, flowId?: string) =>
    deps.events.publish(adminOf(res), tenantId, adminActivity.exportEventData, exportEventData(flowId));

  router.get(
    `${T}/flows/export`,
    exporting(async (req, res, tenantId) => {
      const { format: as } = parse(format, { format: req.query.format }, 'query');
      const { format: _f, ...rest } = req.query;
      const q = parseFlowQuery(rest);
      const support = requireSupport(deps.support);
      await publishExport(res, tenantId);
      await streamExport(
        res,
        as as ExportFormat,
        support.exportFlows(tenantId, filterOf(q)),
        'sign-ins',
        deps.clock.now(),
      );
    }),
  );
  router.get(
    `${T}/flows/:flowId/export`,
    exporting(async (req, res, tenantId) => {
      const { flowId } = parse(z.object({ flowId: pathId }), req.params, 'path');
      const record = await requireSupport(deps.support).getFlow(tenantId, flowId);
      if (!record) throw new MgmtError(404, 'flow_not_found', 'no such flow in this tenant');
      await publishExport(res, tenantId, flowId);
      res
        .status(200)
        .set('Content-Disposition', `attachment; filename="sign-in-${flowId.replace(/[^\w-]/g, '_')}.json"`)
        .json(record);
    }),
  );
  router.use(
    tenantAdminRoute(
      deps,
      {
        method: 'get',
        path: `${T}/flows/:flowId`,
        action: 'activity.read',
        params: z.object({ flowId: pathId }),
      },
      async ({ params, tenant }) => {
        const record = await requireSupport(deps.support).getFlow(tenant.tenantId, params.flowId);
        if (!record) throw new MgmtError(404, 'flow_not_found', 'no such flow in this tenant');
        return flowDetail(record);
      },
    ),
  );
  return router;
}
