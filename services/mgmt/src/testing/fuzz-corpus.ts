import { createHash } from 'node:crypto';
import { LONE_SURROGATE, UNSAFE_DISPLAY_CHARS } from '@sesame/branding';
import type { AdminsRepositories } from '../admins/repository';
import type { DirectoryRepositories } from '../directory/directory.repository';

/**
 * Hostile values for one field: controls, bidi overrides, zero-width characters, over-long text, broken
 * escapes taken literally, huge numbers, and the wrong JSON types (arrays where strings are expected…).
 */
export const hostileValues: unknown[] = [
  'Acme\r\nBcc: x@evil.test',
  'nul\u0000byte',
  'bell\u0007\u001b[31m',
  'c1\u0085\u009b',
  'bidi\u202Egpj.exe',
  'iso\u2066late\u2069',
  'zero\u200Bwidth\uFEFF',
  'x'.repeat(10_050),
  '%zz%E0%A4',
  '\uD800lone surrogate',
  '',
  '   ',
  '<script>alert(1)</script>',
  1e308,
  -1,
  Number.MAX_SAFE_INTEGER * 4,
  true,
  null,
  ['a', 'b'],
  { nested: { deeper: ['x'] } },
];

/** The part of hostileValues sent to each field alone (the whole corpus goes to every field at once). */
export const perFieldValues: unknown[] = [
  'Acme\r\nBcc: x@evil.test',
  'bidi\u202Egpj.exe',
  'zero\u200Bwidth\uFEFF',
  'x'.repeat(10_050),
  1e308,
  null,
  ['a', 'b'],
];

/** The same ideas as form text (a form field is always text; a repeated field arrives as an array). */
export const hostileFormValues: (string | string[])[] = [
  'Acme\r\nBcc: x@evil.test',
  'nul\u0000byte c1\u0085',
  'bidi\u202Egpj.exe iso\u2066late\u2069',
  'zero\u200Bwidth\uFEFF',
  'x'.repeat(10_050),
  '',
  '99999999999999999999999',
  ['a', 'b'],
];

/** A raw body and the content type it is sent with (`undefined`: no Content-Type header at all). */
export interface RawBody {
  what: string;
  contentType?: string;
  body: string | Uint8Array;
}

/** Bodies that are broken as a whole: invalid JSON, wrong content types, broken encodings, empty, too big. */
export const rawBodies: RawBody[] = [
  { what: 'invalid JSON', contentType: 'application/json', body: '{"name": "Acme"' },
  { what: 'an empty JSON body', contentType: 'application/json', body: '' },
  { what: 'JSON null', contentType: 'application/json', body: 'null' },
  { what: 'a JSON array', contentType: 'application/json', body: '["Acme"]' },
  { what: 'a huge JSON number', contentType: 'application/json', body: '{"name":1e999999}' },
  {
    what: 'deep JSON nesting',
    contentType: 'application/json',
    body: `${'['.repeat(5000)}${']'.repeat(5000)}`,
  },
  { what: 'JSON with an unknown charset', contentType: 'application/json; charset=x-unknown', body: '{}' },
  {
    what: 'JSON in bytes that are not UTF-8',
    contentType: 'application/json',
    // {"name":"Acme<FF FE>"}: read leniently, a name of U+FFFD would be stored.
    body: Buffer.from([...Buffer.from('{"name":"Acme'), 0xff, 0xfe, ...Buffer.from('"}')]),
  },
  { what: 'a body too big', contentType: 'application/json', body: `{"name":"${'x'.repeat(300_000)}"}` },
  { what: 'text/plain', contentType: 'text/plain', body: 'name=Acme' },
  { what: 'a form with %zz', contentType: 'application/x-www-form-urlencoded', body: 'name=%zz&csrf=%' },
  {
    what: 'a form with a cut UTF-8 escape',
    contentType: 'application/x-www-form-urlencoded',
    body: 'name=%E0%A4',
  },
  {
    what: 'form bytes that are not UTF-8',
    contentType: 'application/x-www-form-urlencoded',
    body: Buffer.from([0x6e, 0x3d, 0xc3, 0x28]),
  },
  { what: 'multipart without a boundary', contentType: 'multipart/form-data', body: 'name=Acme' },
  {
    what: 'multipart with a boundary never used',
    contentType: 'multipart/form-data; boundary=zz',
    body: 'garbage',
  },
];

/** A plausible value for a JSON Schema property: what a body needs so that one hostile field is reached. */
export function plausible(name: string, schema: Record<string, unknown>): unknown {
  if (Array.isArray(schema.enum)) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === 'boolean') return false;
  if (type === 'integer' || type === 'number')
    return typeof schema.minimum === 'number' ? schema.minimum : 3600;
  if (type === 'array') return [];
  if (type === 'object') return {};
  if (/email/i.test(name)) return 'fuzz@acme.test';
  if (/prefix/i.test(name)) return 'https://fuzz.example/aux/';
  if (/uri|url|endpoint/i.test(name) || schema.format === 'uri') return 'https://fuzz.example/cb';
  return 'Fuzz';
}

const sorted = (rows: unknown[]) => rows.map((r) => JSON.stringify(r, bytes)).sort();
function bytes(_key: string, value: unknown) {
  const v = value as { type?: string; data?: number[] };
  return v && v.type === 'Buffer' && Array.isArray(v.data)
    ? `sha256:${createHash('sha256').update(Buffer.from(v.data)).digest('hex')}`
    : value;
}

/** Everything mgmt stores, through its repositories: equal snapshots mean nothing was written. */
export async function storeSnapshot(dir: DirectoryRepositories, admins: AdminsRepositories): Promise<string> {
  const tenants = await dir.tenants.list();
  const out: Record<string, unknown> = { tenants: sorted(tenants) };
  for (const { tenantId } of tenants) {
    const apps = await dir.applications.list(tenantId);
    const accounts = await admins.accounts.list(tenantId);
    const tokens = [];
    for (const a of accounts) tokens.push(...(await admins.tokens.list(tenantId, a.email)));
    const branding = [await dir.branding.get(tenantId)];
    for (const app of apps) branding.push(await dir.branding.get(tenantId, app.appId));
    out[tenantId] = {
      apps: sorted(apps),
      credentials: sorted(await dir.credentials.list(tenantId)),
      accounts: sorted(accounts),
      invitations: sorted(await admins.invitations.list(tenantId)),
      tokens: sorted(tokens),
      branding: sorted(branding),
      templates: sorted(await dir.branding.templates(tenantId)),
    };
  }
  return JSON.stringify(out);
}

const mangled = (v: unknown) =>
  typeof v === 'string' && (UNSAFE_DISPLAY_CHARS.test(v) || LONE_SURROGATE.test(v) || v.includes('\ufffd'));

/**
 * Names stored with a control, bidi-override or zero-width character, or mangled by a broken encoding (U+FFFD):
 * what no accepted write may leave behind (tenant, application, token and brand names, emails, mail subjects).
 */
export async function unsafeStored(
  dir: DirectoryRepositories,
  admins: AdminsRepositories,
): Promise<string[]> {
  const found: string[] = [];
  const check = (what: string, v: unknown) => {
    if (mangled(v)) found.push(`${what}: ${JSON.stringify(v).slice(0, 60)}`);
  };
  for (const t of await dir.tenants.list()) {
    check(`tenant ${t.tenantId} name`, t.name);
    for (const a of await dir.applications.list(t.tenantId)) check(`application ${a.appId} name`, a.name);
    for (const a of await admins.accounts.list(t.tenantId)) {
      check(`administrator ${a.email}`, a.email);
      for (const k of await admins.tokens.list(t.tenantId, a.email)) check(`token ${k.tokenId} name`, k.name);
    }
    for (const i of await admins.invitations.list(t.tenantId)) check(`invitation ${i.invitationId}`, i.email);
    const settings = (await dir.branding.get(t.tenantId))?.settings ?? {};
    check(`tenant ${t.tenantId} branding displayName`, settings.displayName);
    check(`tenant ${t.tenantId} branding mailSenderName`, settings.mailSenderName);
    for (const m of await dir.branding.templates(t.tenantId))
      check(`mail template ${m.kind}/${m.locale} subject`, m.template.subject);
  }
  return found;
}

/** The forms of a console page: each action with its fields as the page fills them in (what a browser sends). */
export function formsOf(html: string): Map<string, Record<string, string>> {
  const forms = new Map<string, Record<string, string>>();
  for (const m of html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/g)) {
    const action = /\baction="([^"]*)"/.exec(m[1]!)?.[1];
    if (!action) continue;
    const fields: Record<string, string> = {};
    for (const input of m[2]!.matchAll(/<(input|select|textarea)\b([^>]*)>/g)) {
      const name = /\bname="([^"]+)"/.exec(input[2]!)?.[1];
      if (!name || name === 'logo') continue;
      fields[name] = unescapeHtml(/\bvalue="([^"]*)"/.exec(input[2]!)?.[1] ?? '');
    }
    forms.set(unescapeHtml(action).split('?')[0]!, { ...forms.get(action), ...fields });
  }
  return forms;
}

const unescapeHtml = (s: string) =>
  s
    .replace(/&amp;/g, '&')
    .replace(/&#x3D;/g, '=')
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');
