import { isAbsolute, join, resolve } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { CliError } from './admin-client';

/** `backup <file>` and `restore <file>`: the embedded default's store (docs/operations.md, "Backups"). */
export const STORE_COMMANDS = ['backup', 'restore'] as const;
export const STORE_USAGE = [
  'backup FILE [--data-dir DIR]        a consistent snapshot of the embedded store (online while it runs)',
  'restore FILE [--data-dir DIR] [--yes]  replaces the embedded store with a backup (Sesame stopped)',
];
const STORE_OPTIONS: Record<(typeof STORE_COMMANDS)[number], string[]> = {
  backup: ['data-dir', 'admin-key'],
  restore: ['data-dir', 'yes'],
};

export interface StoreIo {
  out: (line: string) => void;
  /** The yes/no question on a terminal; undefined without one (then only --yes replaces a store). */
  confirm?: (question: string) => Promise<boolean>;
  cwd?: string;
}

/** The yes/no question on this process's terminal, or undefined when stdin is not one. */
export function terminalConfirm(): StoreIo['confirm'] {
  if (!process.stdin.isTTY) return undefined;
  return async (question) => {
    const rl = createInterface({ input: process.stdin, output: process.stdout });
    try {
      return /^(y|yes)$/i.test((await rl.question(`${question} [y/N] `)).trim());
    } finally {
      rl.close();
    }
  };
}

/** Runs `backup` or `restore`; returns the exit code (a refusal throws CliError). */
export async function runStoreCommand(opts: {
  name: (typeof STORE_COMMANDS)[number];
  args: string[];
  values: Record<string, unknown>;
  env: Record<string, string | undefined>;
  repoRoot: string;
  adminKey: () => string;
  io: StoreIo;
}): Promise<number> {
  const { name, args, values, env, io } = opts;
  for (const option of Object.keys(values)) {
    if (option !== 'json' && !STORE_OPTIONS[name].includes(option))
      throw new CliError(`"${name}" does not take --${option}; usage: ${usageOf(name)}`, 2);
  }
  if (args.length !== 1 || !args[0])
    throw new CliError(`"${name}" needs one FILE; usage: ${usageOf(name)}`, 2);
  const cwd = io.cwd ?? process.cwd();
  const given = (values['data-dir'] as string | undefined) ?? (env.SESAME_DATA_DIR || undefined);
  const dataDir = given
    ? isAbsolute(given)
      ? given
      : resolve(cwd, given)
    : join(opts.repoRoot, '.sesame/data');
  const file = resolve(cwd, args[0]);
  const { StoreFileError, backupStore, restoreStore } = await storeFiles();
  try {
    if (name === 'backup') {
      const made = await backupStore({ dataDir, file, adminKey: opts.adminKey });
      if (values.json) io.out(JSON.stringify(made));
      else io.out(`Backed up the store in ${dataDir} (${made.via}) to ${made.file}: ${made.bytes} bytes`);
      return 0;
    }
    const outcome = await restoreStore({
      file,
      dataDir,
      yes: values.yes === true,
      ...(io.confirm ? { confirm: io.confirm } : {}),
    });
    if (values.json) io.out(JSON.stringify({ outcome, dataDir, file }));
    else
      io.out(
        outcome === 'restored'
          ? `Restored ${file} into ${dataDir}; npm start opens it (and brings it to this version)`
          : 'Nothing replaced',
      );
    return outcome === 'restored' ? 0 : 1;
  } catch (err) {
    if (err instanceof StoreFileError) throw new CliError(err.message, 1);
    throw err;
  }
}

/**
 * The embedded store's file functions, loaded only for backup and restore. Under tsx this is a plain import;
 * the prebuilt bundle (scripts/build-cli.mjs) leaves this TypeScript module out, so it loads it through tsx.
 */
type StoreFiles = typeof import('@sesame/embedded/store-files');
async function storeFiles(): Promise<StoreFiles> {
  try {
    return await import('@sesame/embedded/store-files');
  } catch (err) {
    if ((err as { code?: string }).code !== 'ERR_UNKNOWN_FILE_EXTENSION') throw err;
    const { tsImport } = await import('tsx/esm/api');
    return (await tsImport('@sesame/embedded/store-files', import.meta.url)) as StoreFiles;
  }
}

const usageOf = (name: string) => STORE_USAGE.find((u) => u.startsWith(`${name} `))!.replace(/\s{2,}.*$/, '');
