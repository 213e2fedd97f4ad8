import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { z } from 'zod';
import { type AdminCall, CliError } from './admin-client';
import type { Command } from './command';

/**
 * Which tenant and application a command means when --tenant / --app are names or absent:
 * - --tenant and --app take an id or a name (matched by listing, case-insensitively; two matches are refused
 *   with both listed);
 * - without --tenant: the default `tenant use` stored for this directory (or the nearest parent that has one),
 *   else the only tenant the token can see (a personal API token sees the tenants of its administrator).
 * Defaults live in the user's config dir, keyed by directory, not in the project: cli.json under
 * $XDG_CONFIG_HOME/sesame (else ~/.config/sesame).
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const seg = (v: string) => encodeURIComponent(v);

type Tenant = { tenantId: string; name: string };
type App = { appId: string; name: string; clientId: string };

const storedSchema = z.object({
  directories: z.record(z.object({ tenantId: z.string().min(1), name: z.string() })).default({}),
});
export type StoredTenant = { tenantId: string; name: string };

export function defaultsFile(env: Record<string, string | undefined>): string {
  return join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'sesame', 'cli.json');
}

function readDefaults(file: string): z.infer<typeof storedSchema> {
  try {
    const parsed = storedSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    if (parsed.success) return parsed.data;
  } catch {
    // No defaults yet.
  }
  return { directories: {} };
}

/** The default stored for `cwd` or its nearest parent, with the directory it was set for. */
export function storedTenant(
  env: Record<string, string | undefined>,
  cwd: string,
): (StoredTenant & { dir: string }) | undefined {
  const { directories } = readDefaults(defaultsFile(env));
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    const entry = directories[dir];
    if (entry) return { ...entry, dir };
    if (dirname(dir) === dir) return undefined;
  }
}

export function storeTenant(
  env: Record<string, string | undefined>,
  cwd: string,
  tenant: StoredTenant,
): string {
  const file = defaultsFile(env);
  const defaults = readDefaults(file);
  defaults.directories[resolve(cwd)] = tenant;
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(defaults, null, 2)}\n`, { mode: 0o600 });
  return file;
}

const listed = (items: Array<{ name: string; id: string }>) =>
  items.map((i) => `"${i.name}" (${i.id})`).join(', ');

/** The one item whose id or name is `given`; a clear error for none or several. */
function pick<T>(kind: string, given: string, items: T[], id: (t: T) => string, name: (t: T) => string): T {
  const byId = items.find((t) => id(t) === given);
  if (byId) return byId;
  const matches = items.filter((t) => name(t).toLowerCase() === given.toLowerCase());
  const shown = (ts: T[]) => listed(ts.map((t) => ({ name: name(t), id: id(t) })));
  if (matches.length === 1) return matches[0]!;
  if (matches.length > 1) {
    throw new CliError(`${matches.length} ${kind}s are named "${given}": ${shown(matches)}; pass the id`, 2);
  }
  throw new CliError(
    `no ${kind} "${given}"${items.length ? `; there are ${shown(items)}` : `: there are no ${kind}s`}`,
    2,
  );
}

export async function listTenants(call: AdminCall): Promise<Tenant[]> {
  return (await call<{ tenants: Tenant[] }>('GET', '/api/v1/admin/tenants')).tenants;
}

/** A tenant given by id (used as it is) or by name. */
export async function resolveTenant(call: AdminCall, given: string): Promise<Tenant> {
  if (UUID.test(given)) return { tenantId: given, name: given };
  return pick(
    'tenant',
    given,
    await listTenants(call),
    (t) => t.tenantId,
    (t) => t.name,
  );
}

/** An application of the tenant by id (or client id, used as they are) or by name. */
export async function resolveApp(call: AdminCall, tenantId: string, given: string): Promise<string> {
  if (UUID.test(given)) return given;
  const { applications } = await call<{ applications: App[] }>(
    'GET',
    `/api/v1/admin/tenants/${seg(tenantId)}/applications`,
  );
  if (applications.some((a) => a.clientId === given)) return given;
  return pick(
    'application',
    given,
    applications,
    (a) => a.appId,
    (a) => a.name,
  ).appId;
}

/** The tenant a command without --tenant means: the stored default, else the token's only tenant. */
export async function defaultTenant(
  call: AdminCall,
  env: Record<string, string | undefined>,
  cwd: string,
): Promise<string> {
  const stored = storedTenant(env, cwd);
  if (stored) return stored.tenantId;
  const tenants = await listTenants(call);
  if (tenants.length === 1) return tenants[0]!.tenantId;
  throw new CliError(
    tenants.length
      ? `which tenant? this token can see ${tenants.length}: ${listed(tenants.map((t) => ({ name: t.name, id: t.tenantId })))}; pass --tenant NAME or run \`npm run sesame -- tenant use NAME\``
      : 'this token can see no tenant: create one with `tenant create --name NAME`',
    2,
  );
}

/** `tenant use NAME|ID`: this directory's default tenant (checked against the admin API first). */
export const tenantUseCommand: Command = {
  usage: 'tenant use NAME_OR_ID   (the default --tenant for this directory and the ones below it)',
  example: 'tenant use Acme',
  options: [],
  required: [],
  args: ['tenant'],
  async run(call, o, ctx = { env: process.env, cwd: process.cwd() }) {
    const [given] = (o._ as string[] | undefined) ?? [];
    if (!given) throw new CliError('"tenant use" needs a tenant name or id; usage: tenant use NAME_OR_ID', 2);
    // Always listed, even for an id: the tenant must exist for this token, and its name is kept for display.
    const known = pick(
      'tenant',
      given,
      await listTenants(call),
      (t) => t.tenantId,
      (t) => t.name,
    );
    const file = storeTenant(ctx.env, ctx.cwd, { tenantId: known.tenantId, name: known.name });
    return {
      json: { tenantId: known.tenantId, name: known.name, directory: resolve(ctx.cwd) },
      text: [
        `Commands run in ${resolve(ctx.cwd)} now use tenant "${known.name}" (${known.tenantId}) without --tenant`,
        `  (kept in ${file})`,
      ],
    };
  },
};
