import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { type AdminCall, CliError, adminClient } from './admin-client';
import { type Options, commands } from './commands';
import { STORE_COMMANDS, STORE_USAGE, type StoreIo, runStoreCommand } from './store-commands';

/** Where `npm start` keeps its demo data and the admin key it generated (SESAME_DEMO_FILE moves it). */
export const DEFAULT_DEMO_FILE = join(dirname(fileURLToPath(import.meta.url)), '../../.sesame/demo.json');
export const DEFAULT_ADMIN_URL = 'http://localhost:8080';
const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '../..');

const globalOptions = ['json', 'url', 'token', 'admin-key', 'help'];
const optionSpec = {
  json: { type: 'boolean' },
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
    `  --url URL              admin API base URL (env SESAME_ADMIN_URL, default ${DEFAULT_ADMIN_URL})`,
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
    let name = positionals.join(' ');
    let command = commands[name];
    let args: string[] = [];
    // A command that takes positional arguments: the longest name that is one, the rest its arguments.
    for (let n = positionals.length - 1; !command && n > 0; n--) {
      const candidate = commands[positionals.slice(0, n).join(' ')];
      if (candidate?.args && positionals.length - n <= candidate.args.length) {
        command = candidate;
        name = positionals.slice(0, n).join(' ');
        args = positionals.slice(n);
      }
    }
    if (!command) throw new CliError(`unknown command "${name}" (see --help)`, 2);
    const given = values as Options;
    for (const option of Object.keys(given)) {
      const allowed = command.options.includes(option) || (option === 'yes' && command.danger);
      if (!globalOptions.includes(option) && !allowed) {
        throw new CliError(`"${name}" does not take --${option}; usage: ${command.usage}`, 2);
      }
    }
    const missing = command.required.filter((o) => given[o] === undefined || given[o] === '');
    if (missing.length) {
      throw new CliError(
        `"${name}" needs ${missing.map((o) => `--${o}`).join(', ')}; usage: ${command.usage}`,
        2,
      );
    }
    if (command.danger && values.yes !== true) await confirmDanger(name, command.danger, io);
    const call: AdminCall = command.local
      ? () => Promise.reject(new CliError(`"${name}" makes no admin API call`))
      : adminClient({
          url: values.url ?? env.SESAME_ADMIN_URL ?? DEFAULT_ADMIN_URL,
          token:
            values.token ??
            values['admin-key'] ??
            (env.SESAME_ADMIN_TOKEN || undefined) ??
            env.SESAME_ADMIN_KEY ??
            demoAdminKey(env.SESAME_DEMO_FILE ?? DEFAULT_DEMO_FILE),
        });
    const output = await command.run(call, args.length ? { ...given, _: args } : given);
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
