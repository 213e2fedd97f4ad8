import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { type AdminCall, CliError, adminClient } from './admin-client';
import type { Command, Context } from './command';
import { type Options, commands } from './commands';
import { DEFAULT_ADMIN_URL, discoverAdminUrl } from './discovery';
import { commandHelp } from './help';
import { STORE_COMMANDS, STORE_USAGE, type StoreIo, runStoreCommand } from './store-commands';
import { defaultTenant, resolveApp, resolveTenant, storedTenant } from './tenant-context';

/** Where `npm start` keeps its demo data and the admin key it generated (SESAME_DEMO_FILE moves it). */
export const DEFAULT_DEMO_FILE = join(dirname(fileURLToPath(import.meta.url)), '../../.sesame/demo.json');
export { DEFAULT_ADMIN_URL } from './discovery';
// Two levels up from cli/src (tsx) and from cli/dist (the bundle, scripts/build-cli.mjs) alike.
const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '../..');

/** The root package.json's version (`--version`). */
export function version(): string {
  return (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version;
}

const globalOptions = ['json', 'url', 'token', 'admin-key', 'help'];
const optionSpec = {
  json: { type: 'boolean' },
  version: { type: 'boolean', short: 'V' },
  url: { type: 'string' },
  'admin-key': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  name: { type: 'string' },
  tenant: { type: 'string' },
  app: { type: 'string' },
  credentials: { type: 'string' },
  'redirect-uri': { type: 'string', multiple: true },
  public: { type: 'boolean' },
  'client-type': { type: 'string' },
  'ciba-mode': { type: 'string' },
  'ciba-notification-endpoint': { type: 'string' },
  'ciba-pending-answer': { type: 'string' },
  'refresh-tokens': { type: 'string' },
  'refresh-absolute-lifetime': { type: 'string' },
  'refresh-idle-lifetime': { type: 'string' },
  'post-logout-redirect-uri': { type: 'string', multiple: true },
  'backchannel-logout-uri': { type: 'string' },
  'backchannel-session-required': { type: 'string' },
  'request-object-signing-alg': { type: 'string' },
  'require-dpop': { type: 'string' },
  'security-profile': { type: 'string' },
  method: { type: 'string' },
  'subject-dn': { type: 'string' },
  'jwks-file': { type: 'string' },
  'jwks-uri': { type: 'string' },
  'bound-tokens': { type: 'string' },
  'require-par': { type: 'string' },
  'id-token-signed-response-alg': { type: 'string' },
  country: { type: 'string', multiple: true },
  token: { type: 'string' },
  secret: { type: 'string' },
  body: { type: 'string' },
  timestamp: { type: 'string' },
  nonce: { type: 'string' },
  email: { type: 'string' },
  alias: { type: 'string' },
  role: { type: 'string' },
  'owner-email': { type: 'string' },
  locale: { type: 'string' },
  'token-id': { type: 'string' },
  'invitation-id': { type: 'string' },
  'expires-in-days': { type: 'string' },
  user: { type: 'string' },
  limit: { type: 'string' },
  cursor: { type: 'string' },
  passkey: { type: 'string' },
  since: { type: 'string' },
  status: { type: 'string' },
  'data-dir': { type: 'string' },
  yes: { type: 'boolean', short: 'y' },
} as const;

export function usage(): string {
  return [
    'usage: npm run sesame -- <command> [options]',
    '',
    'commands:',
    ...Object.values(commands).map((c) => `  ${c.usage}${c.danger ? ' [--yes]' : ''}`),
    ...STORE_USAGE.map((u) => `  ${u}`),
    '',
    'global options:',
    '  --json                 print one JSON object (secrets included, shown once)',
    '  --url URL              admin API base URL (env SESAME_ADMIN_URL, else the URL the running `npm start`',
    `                         wrote to .sesame/platform.json, else ${DEFAULT_ADMIN_URL})`,
    '  --tenant NAME|ID       a name or an id (so is --app); without it: the `tenant use` default of this',
    '                         directory, else the only tenant your token can see',
    '  --help                 after a command: its usage and an example;  --version: the version',
    '  --token TOKEN          your personal API token, made in the console (env SESAME_ADMIN_TOKEN)',
    '                         (for `interactive sign`, --token is the access token to sign)',
    '  --yes, -y              do a destructive command without asking (it asks y/N on a terminal, else refuses)',
    '  --admin-key KEY        the bootstrap key instead (env SESAME_ADMIN_KEY, default the adminKey `npm start`',
    '                         keeps in .sesame/demo.json); refused once a tenant has an Owner unless break-glass is on',
    '',
    "Requests carry Authorization: Bearer <token>; admin events record the token's administrator, or bootstrap-key.",
  ].join('\n');
}

export interface Io extends StoreIo {
  out: (line: string) => void;
  err: (line: string) => void;
}

/** Runs one CLI invocation; returns the exit code. */
export async function run(argv: string[], env: Record<string, string | undefined>, io: Io): Promise<number> {
  try {
    let parsed: ReturnType<typeof parseArgs<{ options: typeof optionSpec; allowPositionals: true }>>;
    try {
      parsed = parseArgs({ args: argv, options: optionSpec, allowPositionals: true, strict: true });
    } catch (err) {
      throw new CliError(`${(err as Error).message.split('\n')[0]} (see --help)`, 2);
    }
    const { values, positionals } = parsed;
    if (values.version) {
      io.out(`sesame ${version()}`);
      return 0;
    }
    if (values.help && positionals.length) {
      const found = findCommand(positionals);
      if (found) {
        io.out(commandHelp(found.command));
        return 0;
      }
    }
    if (values.help || positionals.length === 0) {
      io.out(usage());
      return values.help ? 0 : 2;
    }
    const storeCommand = STORE_COMMANDS.find((c) => c === positionals[0]);
    if (storeCommand) {
      return await runStoreCommand({
        name: storeCommand,
        args: positionals.slice(1),
        values,
        env,
        repoRoot,
        adminKey: () =>
          values['admin-key'] ??
          env.SESAME_ADMIN_KEY ??
          demoAdminKey(env.SESAME_DEMO_FILE ?? DEFAULT_DEMO_FILE),
        io,
      });
    }
    const found = findCommand(positionals);
    if (!found) throw new CliError(`unknown command "${positionals.join(' ')}" (see --help)`, 2);
    const { name, command, args } = found;
    const given = { ...values } as Options;
    for (const option of Object.keys(given)) {
      const allowed = command.options.includes(option) || (option === 'yes' && command.danger);
      if (!globalOptions.includes(option) && !allowed) {
        throw new CliError(`"${name}" does not take --${option}; usage: ${command.usage}`, 2);
      }
    }
    // --tenant may be left out (a default fills it in, below); every other required option is checked now.
    const missing = command.required.filter(
      (o) => o !== 'tenant' && (given[o] === undefined || given[o] === ''),
    );
    if (missing.length) {
      throw new CliError(
        `"${name}" needs ${missing.map((o) => `--${o}`).join(', ')}; usage: ${command.usage}`,
        2,
      );
    }
    if (given.tenant === '') throw new CliError(`"${name}" needs --tenant; usage: ${command.usage}`, 2);
    const demoFile = env.SESAME_DEMO_FILE ?? DEFAULT_DEMO_FILE;
    const admin = discoverAdminUrl({ flag: values.url, env, demoFile });
    const call: AdminCall = command.local
      ? () => Promise.reject(new CliError(`"${name}" makes no admin API call`))
      : adminClient({
          url: admin.url,
          source: admin.source,
          token:
            values.token ??
            values['admin-key'] ??
            (env.SESAME_ADMIN_TOKEN || undefined) ??
            env.SESAME_ADMIN_KEY ??
            demoAdminKey(demoFile),
        });
    const ctx = { env, cwd: io.cwd ?? process.cwd() };
    // Asked before any request, the lookups of names too: a refusal sends nothing.
    if (command.danger && values.yes !== true) await confirmDanger(name, command.danger, io);
    if (!command.local) await resolveNames(command, given, call, ctx);
    const output = await command.run(call, args.length ? { ...given, _: args } : given, ctx);
    if (values.json) io.out(JSON.stringify(output.json));
    else for (const line of output.text) io.out(line);
    return 0;
  } catch (err) {
    if (err instanceof CliError) {
      io.err(`sesame: ${err.message}`);
      return err.exitCode;
    }
    io.err(`sesame: unexpected error: ${(err as Error).message}`);
    return 1;
  }
}

/** The command the positionals name: the longest name that takes the rest as its positional arguments. */
function findCommand(positionals: string[]): { name: string; command: Command; args: string[] } | undefined {
  const whole = positionals.join(' ');
  if (commands[whole]) return { name: whole, command: commands[whole], args: [] };
  for (let n = positionals.length - 1; n > 0; n--) {
    const name = positionals.slice(0, n).join(' ');
    const candidate = commands[name];
    if (candidate?.args && positionals.length - n <= candidate.args.length) {
      return { name, command: candidate, args: positionals.slice(n) };
    }
  }
  return undefined;
}

/**
 * --tenant and --app as ids: a name is looked up (tenant-context.ts), a missing --tenant that the command needs
 * becomes this directory's default or the token's only tenant.
 */
async function resolveNames(command: Command, given: Options, call: AdminCall, ctx: Context): Promise<void> {
  if (!command.options.includes('tenant')) return;
  const tenant = given.tenant as string | undefined;
  if (tenant !== undefined) given.tenant = (await resolveTenant(call, tenant)).tenantId;
  else if (command.required.includes('tenant')) given.tenant = await defaultTenant(call, ctx.env, ctx.cwd);
  // An optional --tenant (logs, attempts erase) otherwise means the caller's only tenant; a default set here wins.
  else given.tenant = storedTenant(ctx.env, ctx.cwd)?.tenantId;
  if (typeof given.app === 'string' && given.tenant !== undefined) {
    given.app = await resolveApp(call, given.tenant as string, given.app);
  }
}

/**
 * A destructive command asks once, saying what will break: y/N on a terminal (only y or yes goes on);
 * without a terminal (a script, a pipe) it refuses unless --yes. Either way nothing has been sent yet.
 */
async function confirmDanger(name: string, danger: string, io: Io): Promise<void> {
  if (!io.confirm) {
    throw new CliError(
      `"${name}" ${danger}; there is no terminal to ask on, so nothing was done: pass --yes to go ahead`,
      2,
    );
  }
  if (!(await io.confirm(`"${name}" ${danger}. Go ahead?`))) {
    throw new CliError(`"${name}" cancelled: nothing was changed`, 1);
  }
}

/** The admin key `npm start` generated and keeps in its demo file; without one the CLI cannot authenticate. */
function demoAdminKey(file: string): string {
  let key: unknown;
  try {
    key = (JSON.parse(readFileSync(file, 'utf8')) as { adminKey?: unknown }).adminKey;
  } catch {
    key = undefined;
  }
  if (typeof key === 'string' && key) return key;
  throw new CliError(
    `no admin key: pass --admin-key, set SESAME_ADMIN_KEY, or run npm start once (it keeps one in ${file})`,
    2,
  );
}
