import { authMethodTypes, flowStatuses, flowTypes } from '@sesame/flow-events';
import express from 'express';
import { z } from 'zod';
import { isAllowed } from '../admins/permissions';
import { adminActivity } from '../events/admin-events';
import { parse } from '../http/validate';
import { exportEventData, streamExport } from '../use-cases/people/export';
import { DEFAULT_PAGE, type FlowQuery, filterOf, parseFlowQuery } from '../use-cases/people/query';
import { flowDetail } from '../use-cases/people/summary';
import type { ConsoleDeps } from './context';
import { ConsoleError } from './errors';
import { type FormSpec, type Problem, formErrors, refusalProblems } from './form-problems';
import { allowedRoute, pageKit } from './page-kit';
import { type WordKind, plainWords, wordKey } from './plain-words';
import { CONSOLE_PATH, type ConsoleRenderer } from './render';
import { appNames, flowRow, supportOf, timeView, userHref, viewerZone, zoneView } from './support-view';

const P = CONSOLE_PATH;
const FILTERS = ['app', 'status', 'flowType', 'method', 'from', 'to', 'user', 'email'] as const;
const CURSOR = /^[\w\-.~=]{1,512}$/;
/** How many earlier pages "Newer" can walk back through (the trail rides in the URL). */
const TRAIL = 20;
const FILTER_FORM: FormSpec = {
  app: { id: 'f-app', label: 'col.application' },
  status: { id: 'f-status', label: 'col.status' },
  flowType: { id: 'f-type', label: 'activity.flowType' },
  method: { id: 'f-method', label: 'col.method' },
  from: { id: 'f-from', label: 'activity.from' },
  to: { id: 'f-to', label: 'activity.to' },
  user: { id: 'f-user', label: 'activity.user' },
  email: { id: 'f-email', label: 'activity.email' },
};

const day = (ms: number | undefined) => (ms === undefined ? '' : new Date(ms).toISOString().slice(0, 10));

/** The page's filters as given (strings), for the form, the paging links and the export form. */
function givenFilters(query: Record<string, unknown>): [string, string][] {
  return FILTERS.flatMap((name) => {
    const v = query[name];
    return typeof v === 'string' && v !== '' ? [[name, v] as [string, string]] : [];
  });
}

/**
 * Activity: the tenant's sign-ins newest first with filters (application, status, flow type, method, time
 * range, user) and cursor paging (Next / Newer; stable while new records arrive); Export CSV / Export JSON of
 * the filtered set, streamed. One sign-in's page: its outcome, its events as a timeline in words, the devices
 * and IP, the raw JSON and its export. Each export publishes administrator_export_event_data.
 */
export function activityPage(deps: ConsoleDeps, renderer: ConsoleRenderer) {
  const router = express.Router();
  const { show, emit } = pageKit(deps, renderer);

  router.get(
    '/activity',
    allowedRoute('activity.read', async (req, res, s) => {
      const support = supportOf(deps.support);
      const raw = req.query as Record<string, unknown>;
      // A refused filter is the same page with the filters as typed, the problem beside its field, no rows.
      let problems: Problem[] = [];
      let q: FlowQuery = {};
      try {
        q = parseFlowQuery({ ...raw, limit: undefined });
      } catch (err) {
        problems = refusalProblems(err);
      }
      const trailGiven = typeof raw.trail === 'string' ? raw.trail.split(' ') : [];
      const trail = trailGiven.filter((c) => CURSOR.test(c)).slice(-TRAIL);
      const zone = viewerZone(req, res);
      const apps = await appNames(deps.dir, s.tenant.tenantId);
      const page = problems.length
        ? { flows: [], nextCursor: undefined }
        : await support.listFlows(s.tenant.tenantId, filterOf(q), DEFAULT_PAGE, q.cursor);
      const typed = (name: string) => (typeof raw[name] === 'string' ? (raw[name] as string) : undefined);
      const filters = givenFilters(raw);
      const link = (cursor: string | undefined, nextTrail: string[]) =>
        `${P}/activity?${new URLSearchParams([
          ...filters,
          ...(cursor ? [['cursor', cursor] as [string, string]] : []),
          ...(nextTrail.length ? [['trail', nextTrail.join(' ')] as [string, string]] : []),
        ])}`;
      const choice = (kind: WordKind, values: readonly string[], selected: string | undefined) =>
        values.map((value) => ({
          value,
          label: wordKey(kind, value) ?? value,
          selected: value === selected,
        }));
      show(
        res,
        'activity',
        'activity',
        'activity.title',
        {
          flows: page.flows.map((f) => flowRow(f, { locale: s.locale, zone, apps })),
          showPerson: true,
          apps: [...apps].map(([value, label]) => ({
            value,
            label,
            selected: value === (q.app ?? typed('app')),
          })),
          statuses: choice('status', flowStatuses, q.status),
          flowTypes: choice('flowType', flowTypes, q.flowType),
          methods: choice('method', authMethodTypes, q.method),
          filter: {
            from: typeof raw.from === 'string' ? raw.from : day(q.from),
            to: raw.to ?? '',
            user: q.user ?? typed('user') ?? '',
            email: q.email ?? typed('email') ?? '',
          },
          ...formErrors(s.locale, FILTER_FORM, problems),
          ...(page.nextCursor
            ? { nextHref: link(page.nextCursor, q.cursor ? [...trail, q.cursor] : trail) }
            : {}),
          ...(q.cursor ? { newerHref: link(trail.at(-1), trail.slice(0, -1)) } : {}),
          canExport: isAllowed(s.account.role, 'events.export'),
          exportAction: `${P}/activity/export`,
          exportKeep: filters.map(([name, value]) => ({ name, value })),
          zone: zoneView(req, zone),
        },
        problems.length ? 400 : 200,
      );
    }),
  );

  router.post(
    '/activity/export',
    allowedRoute('events.export', async (req, res, s) => {
      const body = (req.body ?? {}) as Record<string, unknown>;
      const { format } = parse(
        z.object({ format: z.enum(['csv', 'json']) }),
        { format: body.format },
        'form',
      );
      const only = Object.fromEntries(givenFilters(body));
      const q = parseFlowQuery(only);
      const support = supportOf(deps.support);
      await emit(req, res)(s.tenant.tenantId, adminActivity.exportEventData, exportEventData());
      await streamExport(
        res,
        format,
        support.exportFlows(s.tenant.tenantId, filterOf(q)),
        'sign-ins',
        deps.clock.now(),
      );
    }),
  );

  const flowOf = async (tenantId: string, flowId: unknown) => {
    const { id } = parse(z.object({ id: z.string().min(1).max(256) }), { id: flowId }, 'path');
    const record = await supportOf(deps.support).getFlow(tenantId, id);
    if (!record) throw new ConsoleError(404, 'error.notFound');
    return record;
  };

  router.get(
    '/activity/:flowId',
    allowedRoute('activity.read', async (req, res, s) => {
      const record = await flowOf(s.tenant.tenantId, req.params.flowId);
      const zone = viewerZone(req, res);
      const apps = await appNames(deps.dir, s.tenant.tenantId);
      const detail = flowDetail(record, s.locale);
      show(res, 'flow', 'activity', 'activity.title', {
        title: detail.flow.id,
        flow: detail.flow,
        methodLabel: detail.flow.authMethodType
          ? plainWords(s.locale, 'method', detail.flow.authMethodType).label
          : '',
        statusLabel: plainWords(s.locale, 'status', detail.flow.status).label,
        when: timeView(record.timestamp, s.locale, zone),
        person: detail.flow.email ?? detail.flow.userId ?? '',
        ...(detail.flow.userId ? { personHref: userHref(detail.flow.userId) } : {}),
        app: apps.get(record.applicationId) ?? record.applicationId,
        timeline: detail.timeline.map((e) => ({ ...e, at: timeView(e.timestamp, s.locale, zone) })),
        authenticatingDevice: detail.authenticatingDevice,
        raw: JSON.stringify(record, null, 2),
        canExport: isAllowed(s.account.role, 'events.export'),
        exportAction: `${P}/activity/${encodeURIComponent(record.id)}/export`,
      });
    }),
  );

  router.post(
    '/activity/:flowId/export',
    allowedRoute('events.export', async (req, res, s) => {
      const record = await flowOf(s.tenant.tenantId, req.params.flowId);
      await emit(req, res)(s.tenant.tenantId, adminActivity.exportEventData, exportEventData(record.id));
      res
        .status(200)
        .set({
          'Content-Disposition': `attachment; filename="sign-in-${record.id.replace(/[^\w-]/g, '_')}.json"`,
          'Cache-Control': 'no-store',
        })
        .type('application/json')
        .send(JSON.stringify(record, null, 2));
    }),
  );
  return router;
}
