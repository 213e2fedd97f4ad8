import { existsSync, rmSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { parseArgs } from 'node:util';
import { EmbeddedStore, EmbeddedStoreError } from '@sesame/embedded-store';
import { z } from 'zod';
import { StoreFileError, assertDataDir } from './store-files';

/** `npm start -- [flags]` (and `npm run reset -- [flags]`): where the data lives and whether to start fresh. */
export interface LauncherArgs {
  dataDir?: string;
  memory: boolean;
  fresh: boolean;
  yes: boolean;
  /** `--show-secrets`: the banner prints the admin key and the demo secrets (else only where they are kept). */
  showSecrets?: boolean;
  /** Serve the public port over TLS with the local CA's certificate (local-tls.ts). */
  https: boolean;
}

export class LauncherArgsError extends Error {
  override name = 'LauncherArgsError';
}

export const LAUNCHER_USAGE =
  'usage: npm start -- [--data-dir DIR] [--memory] [--fresh [--yes]] [--https] [--show-secrets]   (npm run reset -- [--data-dir DIR] [--yes])';

export function parseLauncherArgs(argv: string[]): LauncherArgs {
  try {
    const { values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        'data-dir': { type: 'string' },
        memory: { type: 'boolean', default: false },
        fresh: { type: 'boolean', default: false },
        yes: { type: 'boolean', short: 'y', default: false },
        'show-secrets': { type: 'boolean', default: false },
        https: { type: 'boolean', default: false },
      },
    });
    if (values['data-dir'] !== undefined && !values['data-dir'].trim())
      throw new LauncherArgsError('--data-dir needs a directory');
    if (values.memory && values['data-dir'] !== undefined)
      throw new LauncherArgsError('--memory keeps nothing on disk: it takes no --data-dir');
    return {
      ...(values['data-dir'] !== undefined ? { dataDir: values['data-dir'] } : {}),
      memory: values.memory,
      fresh: values.fresh,
      yes: values.yes,
      ...(values['show-secrets'] ? { showSecrets: true } : {}),
      https: values.https,
    };
  } catch (err) {
    if (err instanceof LauncherArgsError) throw err;
    throw new LauncherArgsError(`${(err as Error).message.split('\n')[0]}; ${LAUNCHER_USAGE}`);
  }
}

export const storesEnv = z.object({
  SESAME_STORES: z
    .enum(['embedded', 'memory'])
    .default('embedded')
    .describe(
      "`memory`: today's in-memory stores, nothing kept (tests that want it); `embedded` (default): durable.",
    ),
  SESAME_DATA_DIR: z
    .string()
    .trim()
    .min(1)
    .optional()
    .describe(
      'Where npm start keeps its data (relative to the working directory); --data-dir overrides it. Default: .sesame/data in this checkout.',
    ),
});

export type StoreChoice = { kind: 'memory' } | { kind: 'embedded'; dir: string };

/**
 * Where `npm start` keeps its data: --memory or SESAME_STORES=memory keep nothing; else --data-dir, else
 * SESAME_DATA_DIR (relative to the working directory), else `.sesame/data` in this checkout.
 */
export function storeChoice(
  args: LauncherArgs,
  env: Record<string, string | undefined>,
  repoRoot: string,
  cwd = process.cwd(),
): StoreChoice {
  const parsed = storesEnv.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new LauncherArgsError(`${issue.path.join('.')}: ${issue.message}`);
  }
  if (args.memory || parsed.data.SESAME_STORES === 'memory') return { kind: 'memory' };
  const given = args.dataDir ?? parsed.data.SESAME_DATA_DIR;
  if (!given) return { kind: 'embedded', dir: join(repoRoot, '.sesame/data') };
  return { kind: 'embedded', dir: isAbsolute(given) ? given : resolve(cwd, given) };
}

/** Asks a yes/no question; only `y` or `yes` is yes. */
export type Confirm = (question: string) => Promise<boolean>;

/** The question on a terminal; without one (a script, a pipe) the answer is no: pass --yes instead. */
export function terminalConfirm(
  input: NodeJS.ReadableStream & { isTTY?: boolean } = process.stdin,
  output: NodeJS.WritableStream = process.stdout,
): Confirm | undefined {
  if (!input.isTTY) return undefined;
  return async (question) => {
    const rl = createInterface({ input, output });
    try {
      return /^(y|yes)$/i.test((await rl.question(`${question} [y/N] `)).trim());
    } finally {
      rl.close();
    }
  };
}

export type ResetOutcome = 'deleted' | 'declined' | 'nothing';

/**
 * Start fresh: deletes the data directory and the demo file, after asking (`confirm`; `yes` skips the
 * question; neither: refused). Refused while another Sesame holds the store (the engine's lock says so).
 */
export async function resetData(opts: {
  dataDir: string;
  demoFile: string;
  yes: boolean;
  confirm?: Confirm;
}): Promise<ResetOutcome> {
  const { dataDir, demoFile } = opts;
  const present = [dataDir, demoFile].filter((p) => existsSync(p));
  if (present.length === 0) return 'nothing';
  if (existsSync(dataDir)) {
    // Never a directory that is not a store (a mistyped --data-dir $HOME): it has sesame.db, or is empty.
    try {
      assertDataDir(dataDir);
    } catch (err) {
      if (err instanceof StoreFileError)
        throw new LauncherArgsError(`cannot start fresh: ${err.message}; nothing deleted`);
      throw err;
    }
    // The lock check: opening takes the engine's exclusive lock, refused while another process holds it.
    try {
      EmbeddedStore.open({ dir: dataDir }).close();
    } catch (err) {
      if (err instanceof EmbeddedStoreError)
        throw new LauncherArgsError(`cannot start fresh: ${err.message}`);
      throw err;
    }
  }
  if (!opts.yes) {
    if (!opts.confirm)
      throw new LauncherArgsError(
        `starting fresh deletes ${present.join(' and ')}; no terminal to ask on: pass --yes to delete without asking`,
      );
    if (!(await opts.confirm(`Delete every tenant, person and log in ${dataDir}, and ${demoFile}?`)))
      return 'declined';
  }
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(demoFile, { force: true });
  return 'deleted';
}
