import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { CliError, RawBody } from './admin-client';
import type { Command, Options } from './command';

type Branding = { tenantId: string; appId?: string; settings: Record<string, unknown> };

const str = (o: Options, name: string) => o[name] as string | undefined;
const pathOf = (o: Options) => {
  const tenant = `/api/v1/admin/tenants/${encodeURIComponent(str(o, 'tenant')!)}`;
  const app = str(o, 'app');
  return `${tenant}${app ? `/applications/${encodeURIComponent(app)}` : ''}/branding`;
};
const SCOPE = '--tenant TENANT_ID [--app APP_ID]';
/** Option → settings field; an empty value ("") removes the field. */
const FIELDS: ReadonlyArray<[string, string]> = [
  ['display-name', 'displayName'],
  ['corner-style', 'cornerStyle'],
  ['support-url', 'supportUrl'],
  ['privacy-url', 'privacyUrl'],
  ['sender-name', 'mailSenderName'],
  ['reply-to', 'mailReplyTo'],
];
const COLOURS = ['light-accent', 'light-background', 'dark-accent', 'dark-background'];
const LOGO_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.webp': 'image/webp',
  '.svg': 'image/svg+xml',
};

/** The logo file of --logo as the logo route's body, typed by its extension. */
async function logoBody(file: string): Promise<RawBody> {
  const type = LOGO_TYPES[extname(file).toLowerCase()];
  if (!type) throw new CliError('--logo must be a .png, .webp or .svg file', 2);
  try {
    return new RawBody(type, await readFile(file));
  } catch (err) {
    throw new CliError(`cannot read ${file}: ${(err as Error).message}`, 2);
  }
}

const lines = (b: Branding) => {
  const entries = Object.entries(b.settings);
  const scope = b.appId ? `application ${b.appId} of tenant ${b.tenantId}` : `tenant ${b.tenantId}`;
  if (!entries.length) return [`Branding of ${scope}: Sesame's default`];
  return [
    `Branding of ${scope}:`,
    ...entries.map(([k, v]) => `  ${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`),
  ];
};

/** `branding get|set|reset`: a tenant's (or an application's) branding through the admin API. */
export const brandingCommands: Record<string, Command> = {
  'branding get': {
    usage: `branding get ${SCOPE}`,
    options: ['tenant', 'app'],
    required: ['tenant'],
    async run(call, o) {
      const b = await call<Branding>('GET', pathOf(o));
      return { json: b, text: lines(b) };
    },
  },
  'branding set': {
    example: "branding set --tenant Acme --app Shop --display-name 'Shop' --light-accent '#0b5fff'",
    usage: `branding set ${SCOPE} [--display-name NAME] [--light-accent #RRGGBB --light-background #RRGGBB] [--dark-accent #RRGGBB --dark-background #RRGGBB] [--corner-style square|rounded|pill] [--support-url URL] [--privacy-url URL] [--sender-name NAME] [--reply-to EMAIL] [--logo FILE.png|.webp|.svg]`,
    options: ['tenant', 'app', ...FIELDS.map(([option]) => option), ...COLOURS, 'logo'],
    required: ['tenant'],
    async run(call, o) {
      const current = await call<Branding>('GET', pathOf(o));
      const { logo: _logo, ...settings } = current.settings as Record<string, unknown>;
      let changed = false;
      for (const [option, field] of FIELDS) {
        const value = str(o, option);
        if (value === undefined) continue;
        changed = true;
        settings[field] = value === '' ? undefined : value;
      }
      for (const scheme of ['light', 'dark']) {
        const accent = str(o, `${scheme}-accent`);
        const background = str(o, `${scheme}-background`);
        if (accent === undefined && background === undefined) continue;
        changed = true;
        const before = (settings[scheme] ?? {}) as Record<string, string>;
        settings[scheme] = { accent: accent ?? before.accent, background: background ?? before.background };
      }
      const logo = str(o, 'logo');
      if (!changed && !logo) throw new CliError('branding set: give at least one setting to change', 2);
      const body = logo ? await logoBody(logo) : undefined;
      let b = changed ? await call<Branding>('PUT', pathOf(o), settings) : current;
      if (body) b = await call<Branding>('PUT', `${pathOf(o)}/logo`, body);
      return { json: b, text: lines(b) };
    },
  },
  'branding reset': {
    danger:
      'resets the branding to the defaults: your logo, colours, links and mail texts are replaced at once',
    usage: `branding reset ${SCOPE}`,
    options: ['tenant', 'app'],
    required: ['tenant'],
    async run(call, o) {
      const b = await call<Branding>('DELETE', pathOf(o));
      return { json: b, text: lines(b) };
    },
  },
};
