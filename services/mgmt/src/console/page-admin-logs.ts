import type { PromiseClient } from '@sesame/platform';
import type { events, activitylogs } from '@sesame/proto';
import express from 'express';
import { adminActivity } from '../events/admin-events';
import type { ConsoleDeps } from './context';
import { allowedRoute, pageKit } from './page-kit';
import { plainWords } from './plain-words';
import type { ConsoleRenderer } from './render';

const DAY = 86_400_000;
const TYPES = Object.values(adminActivity).sort();

const stringify = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

/** An event's data, readable: a `diff` (JSON of {field: {from, to}}) as one change per field, the rest as is. */
export function readableData(data: Record<string, unknown> | undefined) {
  const changes: { field: string; from: string; to: string }[] = [];
  const fields: { name: string; value: string }[] = [];
  for (const [name, value] of Object.entries(data ?? {})) {
    if (name === 'diff' && typeof value === 'string') {
      try {
        for (const [field, change] of Object.entries(
          JSON.parse(value) as Record<string, { from: unknown; to: unknown }>,
        )) {
          changes.push({ field, from: stringify(change.from), to: stringify(change.to) });
        }
        continue;
      } catch {
        // not JSON: shown as it is
      }
    }
    fields.push({ name, value: stringify(value) });
  }
  return { changes, fields };
}

const dayStart = (value: unknown, fallback: number) => {
  const ms =
    typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)
      ? Date.parse(`${value}T00:00:00Z`)
      : Number.NaN;
  return Number.isFinite(ms) ? ms : fallback;
};

/**
 * Admin logs: the tenant's admin events newest first (from activity-log's ActivityLogs gRPC), filtered by
 * type, administrator and days; each event says what changed (a diff as from → to), by whom, from where.
 */
export function adminLogsPage(
  deps: ConsoleDeps & { activityLogs: PromiseClient<activitylogs.ActivityLogsServiceClient> },
  renderer: ConsoleRenderer,
) {
  const router = express.Router();
  const { show } = pageKit(deps, renderer);
  router.get(
    '/admin-logs',
    allowedRoute('adminLogs.read', async (req, res, s) => {
      const now = deps.clock.now();
      const from = dayStart(req.query.from, now - 7 * DAY);
      const to = Math.min(dayStart(req.query.to, now) + DAY - 1, from + 30 * DAY);
      const type = typeof req.query.type === 'string' ? req.query.type : '';
      const admin = typeof req.query.admin === 'string' ? req.query.admin.trim().toLowerCase() : '';
      const page = await deps.activityLogs.queryAdminLogs({
        tenantId: s.tenant.tenantId,
        fromTime: from,
        toTime: to,
        skip: 0,
        take: 500,
      });
      const shown = page.events
        .filter(
          (e: events.AdminEvent) => (!type || e.activityType === type) && (!admin || e.adminEmail === admin),
        )
        .sort((a, b) => b.timestampMs - a.timestampMs)
        .map((e) => ({
          when: new Date(e.timestampMs).toISOString().replace('T', ' ').slice(0, 19),
          type: e.activityType,
          typeLabel: plainWords(s.locale, 'event', e.activityType).label,
          adminEmail: e.adminEmail,
          clientIp: e.clientIp,
          sessionId: e.sessionId,
          ...readableData(e.data as Record<string, unknown> | undefined),
        }));
      show(res, 'adminLogs', 'admin-logs', 'logs.title', {
        events: shown,
        types: TYPES.map((t) => ({
          value: t,
          label: plainWords(s.locale, 'event', t).label,
          selected: t === type,
        })),
        filter: {
          admin,
          from: new Date(from).toISOString().slice(0, 10),
          to: new Date(to).toISOString().slice(0, 10),
        },
      });
    }),
  );
  return router;
}
