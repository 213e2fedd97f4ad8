import type { Request, Response } from 'express';
import type { DirectoryRepositories } from '../directory/directory.repository';
import type { ConsoleLocale } from '../i18n';
import type { FlowRecord, SupportPort } from '../support/port';
import { summarize } from '../use-cases/people/summary';
import { ConsoleError } from './errors';
import { plainWords } from './plain-words';
import { CONSOLE_PATH } from './render';

const ZONE_COOKIE = 'sesame-console-tz';
const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/;

function validZone(name: unknown): string | undefined {
  if (typeof name !== 'string' || !ZONE_NAME.test(name)) return undefined;
  try {
    return new Intl.DateTimeFormat('en', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

/** A cookie value percent-decoded; a malformed escape (`%E0%A4%A`) is no value (the cookie is ignored). */
function decodedCookie(value: string): string | undefined {
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
}

/**
 * The viewer's time zone: `?tz=` when it is a valid IANA name (kept in a cookie for the next pages), else the
 * cookie, else UTC. The console runs no script, so the browser's own zone is not known to it.
 */
export function viewerZone(req: Request, res: Response): string {
  const given = validZone(req.query.tz);
  if (given) {
    res.cookie(ZONE_COOKIE, given, { path: CONSOLE_PATH, sameSite: 'lax', maxAge: 365 * 86_400_000 });
    return given;
  }
  const cookie = (req.header('cookie') ?? '')
    .split(';')
    .map((p) => p.trim())
    .find((p) => p.startsWith(`${ZONE_COOKIE}=`));
  return validZone(decodedCookie(cookie?.slice(ZONE_COOKIE.length + 1) ?? '')) ?? 'UTC';
}

/** A time as `<time>` shows it: the ISO instant, the UTC text for the title, the local text in `zone`. */
export function timeView(ms: number, locale: ConsoleLocale, zone: string) {
  const date = new Date(ms);
  const iso = date.toISOString();
  return {
    time: iso,
    utc: `${iso.slice(0, 19).replace('T', ' ')} UTC`,
    local: new Intl.DateTimeFormat(locale, {
      dateStyle: 'medium',
      timeStyle: 'medium',
      timeZone: zone,
    }).format(date),
  };
}

/** The zone form's view: the current zone and the page's other query parameters (kept on submit). */
export function zoneView(req: Request, zone: string) {
  const keep = Object.entries(req.query)
    .filter(([name, value]) => name !== 'tz' && typeof value === 'string')
    .map(([name, value]) => ({ name, value: value as string }));
  return { name: zone, keep };
}

/** The support port, or the console's 503 page saying support look-up is not configured. */
export function supportOf(support: SupportPort | undefined): SupportPort {
  if (!support) throw new ConsoleError(503, 'support.off');
  return support;
}

/** Application names by id, for the tenant's rows. */
export async function appNames(dir: DirectoryRepositories, tenantId: string): Promise<Map<string, string>> {
  return new Map((await dir.applications.list(tenantId)).map((a) => [a.appId, a.name]));
}

export const userHref = (userId: string) => `${CONSOLE_PATH}/users/${encodeURIComponent(userId)}`;
export const flowHref = (flowId: string) => `${CONSOLE_PATH}/activity/${encodeURIComponent(flowId)}`;

/** One row of a sign-ins table. */
export function flowRow(
  record: FlowRecord,
  ctx: { locale: ConsoleLocale; zone: string; apps: Map<string, string> },
) {
  const s = summarize(record, ctx.locale);
  return {
    ...timeView(record.timestamp, ctx.locale, ctx.zone),
    href: flowHref(record.id),
    // A sign-in of nobody with an account still says which address was typed (issue 38).
    person: s.email ?? s.userId ?? s.attemptedEmail ?? '',
    ...(s.userId ? { personHref: userHref(s.userId) } : {}),
    app: ctx.apps.get(record.applicationId) ?? record.applicationId,
    method: s.authMethodType ?? '',
    methodLabel: s.authMethodType ? plainWords(ctx.locale, 'method', s.authMethodType).label : '',
    device: s.device,
    location: s.location,
    status: s.status,
    statusLabel: plainWords(ctx.locale, 'status', s.status).label,
    outcome: s.outcome,
  };
}
