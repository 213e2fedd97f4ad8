import { htmlPageHeaders } from '@sesame/platform';
import Handlebars from 'handlebars';
import type { AdminRole } from '../admins/model';
import { type AdminAction, isAllowed } from '../admins/permissions';
import { type ConsoleLocale, ct } from '../i18n';
import { CONSOLE_CSS_NAME } from './style';
import { type ConsolePage, layout, pages } from './templates';

export const CONSOLE_PATH = '/console';

/** The navigation and the signed-in administrator, on every page of a signed-in session. */
export interface Shell {
  email: string;
  roleLabel: string;
  tenantName: string;
  csrf: string;
  signOutAction: string;
  links: { href: string; label: string; current: boolean }[];
  /** The switcher's choices, when the administrator has more than one tenant. */
  tenants?: { tenantId: string; name: string; current: boolean }[];
  switchAction: string;
  newTenantHref?: string;
}

/**
 * The console's sections, in the navigation's order (English names are fixed: tests use them), each with
 * the permission (admins/permissions.ts) its page needs: the navigation shows a role only what it can open.
 */
export const SECTIONS = [
  { path: 'home', label: 'nav.home', action: 'application.write' },
  { path: 'applications', label: 'nav.applications', action: 'application.read' },
  { path: 'credentials', label: 'nav.credentials', action: 'credentials.read' },
  { path: 'users', label: 'nav.users', action: 'users.read' },
  { path: 'activity', label: 'nav.activity', action: 'activity.read' },
  { path: 'admin-logs', label: 'nav.adminLogs', action: 'adminLogs.read' },
  { path: 'administrators', label: 'nav.administrators', action: 'administrators.read' },
  { path: 'settings', label: 'nav.settings', action: 'tenant.update' },
  { path: 'branding', label: 'nav.branding', action: 'branding.read' },
  { path: 'tokens', label: 'nav.tokens', action: 'ownTokens.manage' },
] as const satisfies readonly { path: string; label: string; action: AdminAction }[];

/** The sections a role may open, in the navigation's order. */
export const sectionsFor = (role: AdminRole) => SECTIONS.filter((s) => isAllowed(role, s.action));

/** Where /console/ sends a role: Home for Owners and Administrators, Users for Support. */
export const landingOf = (role: AdminRole) =>
  `${CONSOLE_PATH}/${isAllowed(role, 'application.write') ? 'home' : 'users'}`;

export function shellOf(opts: {
  email: string;
  role: AdminRole;
  tenantName: string;
  csrf: string;
  current: string;
  locale: ConsoleLocale;
  tenants: { tenantId: string; name: string }[];
  currentTenantId: string;
  canCreateTenant: boolean;
}): Shell {
  return {
    email: opts.email,
    roleLabel: ct(opts.locale, `role.${opts.role}`),
    tenantName: opts.tenantName,
    csrf: opts.csrf,
    signOutAction: `${CONSOLE_PATH}/signout`,
    switchAction: `${CONSOLE_PATH}/tenant`,
    ...(opts.tenants.length > 1
      ? { tenants: opts.tenants.map((t) => ({ ...t, current: t.tenantId === opts.currentTenantId })) }
      : {}),
    ...(opts.canCreateTenant ? { newTenantHref: `${CONSOLE_PATH}/tenants/new` } : {}),
    links: sectionsFor(opts.role).map((s) => ({
      href: `${CONSOLE_PATH}/${s.path}`,
      label: s.label,
      current: s.path === opts.current,
    })),
  };
}

const compileOptions = { strict: false, knownHelpers: { t: true }, knownHelpersOnly: true } as const;

export interface ConsoleRenderer {
  render(page: ConsolePage, locale: ConsoleLocale, view: Record<string, unknown> & { title: string }): string;
}

/** Compiles every template once; `t` reads the catalog of the page's locale. */
export function createConsoleRenderer(): ConsoleRenderer {
  const hb = Handlebars.create();
  hb.registerHelper('t', (key: string, helper: Handlebars.HelperOptions) =>
    ct(helper.data.root.locale as ConsoleLocale, key, helper.hash as Record<string, unknown>),
  );
  hb.registerPartial('layout', hb.compile(layout, compileOptions));
  const compiled = new Map(
    (Object.keys(pages) as ConsolePage[]).map((name) => [name, hb.compile(pages[name], compileOptions)]),
  );
  const stylesheet = `${CONSOLE_PATH}/assets/${CONSOLE_CSS_NAME}`;
  return {
    render(page, locale, view) {
      return compiled.get(page)!({ ...view, locale, stylesheet });
    },
  };
}

const CONSOLE_CSP = [
  "form-action 'self'",
  // the Branding page's previews (documents of the console's own, sandboxed)
  "frame-src 'self'",
];
/**
 * Response headers of every console page: strict CSP (no script at all), no framing, no caching. A page with
 * Copy buttons (view `copyScript`) or Branding's colour pickers adds `script-src 'self'` (consoleHeadersWith).
 */
export const consoleHeaders: Record<string, string> = htmlPageHeaders(CONSOLE_CSP);
/** The same with more CSP directives: the one page that runs a script of its own (Branding) says so. */
export const consoleHeadersWith = (extra: readonly string[]): Record<string, string> =>
  extra.length ? htmlPageHeaders([...new Set([...CONSOLE_CSP, ...extra])]) : consoleHeaders;
