import { type AdminCall, CliError } from './admin-client';
import type { Command, Options } from './command';

type User = { userId: string; email: string; matchedBy: string };
type Flow = {
  id: string;
  timestamp: number;
  time: string;
  applicationId: string;
  userId?: string;
  email?: string;
  attemptedEmail?: string;
  authMethodType?: string;
  status: string;
  device: string;
  ip: string;
  location: string;
  outcome: string;
};
type Detail = {
  flow: Flow;
  timeline: { timestamp: number; time: string; action: string; clientIp?: string; sentence: string }[];
  authenticatingDevice: string;
};

const UNITS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };
const MAX_ROWS = 1000;
const str = (o: Options, name: string) => o[name] as string | undefined;

/** `--since 24h` (m, h, d, w) as the epoch ms it starts at. */
export function sinceOf(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const m = /^(\d{1,6})([mhdw])$/.exec(value);
  if (!m) throw new CliError('--since must be a number and a unit: 30m, 24h, 7d or 2w', 2);
  return now - Number(m[1]) * UNITS[m[2]!]!;
}

/** A local time, "2026-01-01 10:00:00" in this machine's zone. */
export function localTime(ms: number): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

/** Rows as aligned columns under a header. */
export function table(header: string[], rows: string[][]): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)];
}

/** The tenant of --tenant, else the only tenant the caller administers. */
export async function tenantOf(call: AdminCall, o: Options): Promise<string> {
  const given = str(o, 'tenant');
  if (given) return given;
  const { tenants } = await call<{ tenants: { tenantId: string }[] }>('GET', '/api/v1/admin/tenants');
  if (tenants.length === 1) return tenants[0]!.tenantId;
  throw new CliError(
    tenants.length
      ? 'you administer several tenants: pass --tenant NAME or run `npm run sesame -- tenant use NAME`'
      : 'no tenant: pass --tenant',
    2,
  );
}

const T = (tenantId: string) => `/api/v1/admin/tenants/${encodeURIComponent(tenantId)}`;

/** The sign-ins as the table `logs` prints. */
function flowTable(flows: Flow[]): string[] {
  return table(
    ['WHEN', 'FLOW', 'APP', 'METHOD', 'STATUS', 'DEVICE', 'LOCATION', 'OUTCOME'],
    flows.map((f) => [
      localTime(f.timestamp),
      f.id,
      f.applicationId,
      f.authMethodType ?? '-',
      f.status,
      f.device || '-',
      f.location || '-',
      f.outcome,
    ]),
  );
}

/** `logs --email` for an address with no account: the sign-ins it was typed in. */
function attemptsAnswer(tenantId: string, email: string, flows: Flow[]) {
  return {
    json: { tenantId, email, account: false, flows },
    text: flows.length
      ? [`No account has ${email}; sign-in attempts with it, newest first, local time:`, ...flowTable(flows)]
      : [`No account has ${email}, and no sign-in attempt with it matches.`],
  };
}

/**
 * `logs`: the sign-ins of one person (by --email, --user or --alias), newest first, as a readable table of
 * outcomes in words (--email of an address with no account: the sign-ins it was typed in); `logs show FLOW_ID`:
 * one sign-in's timeline. Local times; ISO times with --json.
 */
export const logsCommands: Record<string, Command> = {
  logs: {
    example: 'logs --email ann@example.com --since 24h --status failure',
    usage:
      'logs --email ADDRESS | --user SUB | --alias ALIAS [--app APP_ID] [--since 24h] [--status failure] [--tenant TENANT_ID]',
    options: ['email', 'user', 'alias', 'app', 'since', 'status', 'tenant'],
    required: [],
    async run(call, o) {
      const given = (['email', 'user', 'alias'] as const).filter((k) => str(o, k));
      if (given.length !== 1) throw new CliError('pass exactly one of --email, --user or --alias', 2);
      const from = sinceOf(str(o, 'since'), Date.now());
      const tenantId = await tenantOf(call, o);
      let userId = str(o, 'user');
      let email: string | undefined;
      /** An address nobody in the tenant has: its sign-in attempts, by the address typed (issue 38). */
      let attempted: string | undefined;
      if (!userId) {
        const q = new URLSearchParams({ query: (str(o, 'email') ?? str(o, 'alias'))! });
        if (str(o, 'app')) q.set('app', str(o, 'app')!);
        const { users } = await call<{ users: User[] }>('GET', `${T(tenantId)}/users?${q}`);
        const wanted = given[0] === 'email' ? 'email' : 'alias';
        const found = users.filter((u) => u.matchedBy === wanted);
        if (!found.length && wanted === 'email') attempted = str(o, 'email')!.trim().toLowerCase();
        else if (!found.length) throw new CliError(`nobody in this tenant has that ${wanted}`);
        else if (found.length > 1)
          throw new CliError(`several people have that ${wanted}: pass --app or --user`);
        else ({ userId, email } = found[0]!);
      }
      const filters = new URLSearchParams(
        attempted ? { email: attempted, limit: '200' } : { user: userId!, limit: '200' },
      );
      if (str(o, 'app')) filters.set('app', str(o, 'app')!);
      if (str(o, 'status')) filters.set('status', str(o, 'status')!);
      if (from !== undefined) filters.set('from', String(from));
      const flows: Flow[] = [];
      let cursor: string | undefined;
      do {
        if (cursor) filters.set('cursor', cursor);
        const page = await call<{ flows: Flow[]; nextCursor?: string }>(
          'GET',
          `${T(tenantId)}/flows?${filters}`,
        );
        flows.push(...page.flows);
        cursor = page.nextCursor;
      } while (cursor && flows.length < MAX_ROWS);
      if (attempted) return attemptsAnswer(tenantId, attempted, flows);
      const who = email ?? flows.find((f) => f.email)?.email ?? userId;
      return {
        json: { tenantId, userId, ...(email ? { email } : {}), flows },
        text: flows.length
          ? [`Sign-ins of ${who} (${userId}), newest first, local time:`, ...flowTable(flows)]
          : [`No sign-ins of ${who} (${userId}) match.`],
      };
    },
  },
  'logs show': {
    example: 'logs show FLOW_ID   (a flow id from `logs`)',
    usage: 'logs show FLOW_ID [--tenant TENANT_ID]',
    options: ['tenant'],
    required: [],
    args: ['FLOW_ID'],
    async run(call, o) {
      const flowId = (o._ as string[] | undefined)?.[0];
      if (!flowId) throw new CliError('"logs show" needs a FLOW_ID; usage: logs show FLOW_ID', 2);
      const tenantId = await tenantOf(call, o);
      const d = await call<Detail>('GET', `${T(tenantId)}/flows/${encodeURIComponent(flowId)}`);
      const f = d.flow;
      return {
        json: { tenantId, flow: f, timeline: d.timeline },
        text: [
          `Sign-in ${f.id}: ${f.outcome}`,
          `  when:     ${localTime(f.timestamp)} (${f.time})`,
          `  person:   ${f.email ?? f.userId ?? f.attemptedEmail ?? '-'}`,
          `  app:      ${f.applicationId}`,
          `  method:   ${f.authMethodType ?? '-'}   status: ${f.status}`,
          `  device:   ${f.device || '-'}${d.authenticatingDevice ? `; authenticated on ${d.authenticatingDevice}` : ''}`,
          `  from:     ${f.ip || '-'}${f.location ? ` (${f.location})` : ''}`,
          '',
          ...table(
            ['WHEN', 'STEP', 'WHAT HAPPENED', 'IP'],
            d.timeline.map((e) => [localTime(e.timestamp), e.action, e.sentence, e.clientIp ?? '']),
          ),
        ],
      };
    },
  },
};
