import {
  existsSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { EmbeddedStore, EmbeddedStoreError, type Migration } from '@sesame/embedded-store';
import { z } from 'zod';

/**
 * The embedded store as files: backup (of a running platform through its ops port, of a stopped one directly)
 * and restore (`npm run sesame -- backup <file>` / `restore <file>`). Light on purpose: the CLI imports this
 * module alone (`@sesame/embedded/store-files`), not the services.
 */

/** The launcher's own component in `schema_versions`: the store format of this Sesame as a whole. */
export const LAUNCHER_COMPONENT = 'embedded';
export const launcherMigrations: readonly Migration[] = [
  // 1: the first durable embedded default (issue 36); records when the store was made.
  (db) => {
    db.exec('CREATE TABLE embedded_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT');
    db.prepare('INSERT INTO embedded_meta (key, value) VALUES (?, ?)').run(
      'created_at',
      new Date().toISOString(),
    );
  },
];

/** Where `backup` asks a running platform for a snapshot (its ops port; see backup-route.ts). */
export const BACKUP_PATH = '/ops/store/backup';
/** In the data directory: where the running platform's ops port is (written by `npm start`). */
export const OPS_FILE = 'ops.json';
const DB_FILE = 'sesame.db';
/** A store's files in its data directory (the outbox/ of a Kafka setup is not the store's). */
const STORE_FILES = [DB_FILE, `${DB_FILE}-wal`, `${DB_FILE}-shm`, 'owner.json', OPS_FILE];

export class StoreFileError extends Error {
  override name = 'StoreFileError';
}

export type Confirm = (question: string) => Promise<boolean>;

/** Throws unless `dir` is missing, empty, or a Sesame data directory (never touch someone else's files). */
export function assertDataDir(dir: string): void {
  if (!existsSync(dir)) return;
  const entries = readdirSync(dir);
  if (entries.length > 0 && !entries.includes(DB_FILE))
    throw new StoreFileError(`${dir} is not a Sesame data directory (no ${DB_FILE} in it)`);
}

/** True when a store is in `dir` and no process holds it; throws the engine's message when one does. */
function assertNotHeld(dir: string, doing: string): boolean {
  if (!existsSync(join(dir, DB_FILE))) return false;
  try {
    EmbeddedStore.open({ dir }).close();
    return true;
  } catch (err) {
    if (err instanceof EmbeddedStoreError) throw new StoreFileError(`cannot ${doing}: ${err.message}`);
    throw err;
  }
}

/**
 * Checks that `file` is a Sesame store this Sesame can open: a SQLite database, intact, with the launcher's
 * schema version, not from a newer Sesame. Works on a copy, `stagingDir/sesame.db` (left there, checkpointed).
 * Returns the component versions it holds. (Each component's own newer version is refused at start.)
 */
export function inspectStoreFile(file: string, stagingDir: string): Record<string, number> {
  if (!existsSync(file)) throw new StoreFileError(`${file} does not exist`);
  const bytes = readFileSync(file);
  if (bytes.subarray(0, 16).toString('latin1') !== 'SQLite format 3\u0000')
    throw new StoreFileError(`${file} is not a Sesame store (not a SQLite database)`);
  writeFileSync(join(stagingDir, DB_FILE), bytes, { flag: 'wx', mode: 0o600 });
  let store: EmbeddedStore;
  try {
    store = EmbeddedStore.open({ dir: stagingDir });
  } catch (err) {
    throw new StoreFileError(`${file} is not a Sesame store: ${(err as Error).message}`);
  }
  try {
    const integrity = store.db.pragma('integrity_check', { simple: true });
    if (integrity !== 'ok')
      throw new StoreFileError(`${file} is damaged (integrity check: ${String(integrity)})`);
    const rows = store.db
      .prepare<[], { component: string; version: number }>('SELECT component, version FROM schema_versions')
      .all();
    const components = Object.fromEntries(Array.from(rows, (r) => [r.component, r.version]));
    const format = components[LAUNCHER_COMPONENT];
    if (format === undefined)
      throw new StoreFileError(
        `${file} is not a Sesame store (no "${LAUNCHER_COMPONENT}" schema version in it)`,
      );
    if (format > launcherMigrations.length)
      throw new StoreFileError(
        `${file} was written by a newer Sesame (store format ${format}; this one knows up to ${launcherMigrations.length}); upgrade Sesame to restore it`,
      );
    return components;
  } catch (err) {
    if (err instanceof StoreFileError) throw err;
    throw new StoreFileError(`${file} is not a Sesame store: ${(err as Error).message}`);
  } finally {
    store.close();
  }
}

export type RestoreOutcome = 'restored' | 'declined';

/**
 * Replaces the store in `dataDir` with the backup `file`: refused while a platform holds the directory, for a
 * file that is not a Sesame store or comes from a newer Sesame; asks before replacing an existing store
 * (`yes` skips the question; neither: refused). The checked copy is moved in whole (one rename).
 */
export async function restoreStore(opts: {
  file: string;
  dataDir: string;
  yes: boolean;
  confirm?: Confirm;
}): Promise<RestoreOutcome> {
  const { dataDir } = opts;
  const file = resolve(opts.file);
  assertDataDir(dataDir);
  const exists = assertNotHeld(dataDir, 'restore');
  const parent = dirname(resolve(dataDir));
  const staging = mkdtempSync(join(parent, '.sesame-restore-'));
  try {
    inspectStoreFile(file, staging);
    if (exists && !opts.yes) {
      if (!opts.confirm)
        throw new StoreFileError(
          `restoring replaces the store in ${dataDir}; no terminal to ask on: pass --yes to replace it without asking`,
        );
      if (!(await opts.confirm(`Replace every tenant, person and log in ${dataDir} with ${file}?`)))
        return 'declined';
    }
    // Checked again just before: a platform started while the question was open keeps its store.
    assertNotHeld(dataDir, 'restore');
    for (const name of STORE_FILES) rmSync(join(dataDir, name), { force: true });
    rmSync(join(staging, 'owner.json'), { force: true });
    if (existsSync(dataDir)) {
      renameSync(join(staging, DB_FILE), join(dataDir, DB_FILE));
    } else {
      renameSync(staging, dataDir);
    }
    return 'restored';
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

const opsFile = z.object({ pid: z.number().int(), opsUrl: z.string().url() });

/**
 * A consistent snapshot of the store in `dataDir` to `file` (absolute, must not exist): through the running
 * platform's ops port when one holds the store (the admin key authorizes it), else straight from the files.
 */
export async function backupStore(opts: {
  dataDir: string;
  file: string;
  adminKey: () => string;
}): Promise<{ file: string; bytes: number; via: 'running platform' | 'stopped store' }> {
  const file = resolve(opts.file);
  if (!isAbsolute(file)) throw new StoreFileError(`${file}: an absolute path is needed`);
  if (existsSync(file)) throw new StoreFileError(`${file} exists; a backup never overwrites a file`);
  if (!existsSync(join(opts.dataDir, DB_FILE))) throw new StoreFileError(`no store in ${opts.dataDir}`);
  let store: EmbeddedStore | undefined;
  try {
    store = EmbeddedStore.open({ dir: opts.dataDir });
  } catch (err) {
    if (!(err instanceof EmbeddedStoreError)) throw err;
  }
  if (store) {
    try {
      await store.backup(file);
    } finally {
      store.close();
    }
    return { file, bytes: readFileSync(file).length, via: 'stopped store' };
  }
  let ops: z.infer<typeof opsFile>;
  try {
    ops = opsFile.parse(JSON.parse(readFileSync(join(opts.dataDir, OPS_FILE), 'utf8')));
  } catch {
    throw new StoreFileError(
      `the store in ${opts.dataDir} is in use, but ${OPS_FILE} does not say where its ops port is`,
    );
  }
  let res: Response;
  try {
    res = await fetch(`${ops.opsUrl}${BACKUP_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${opts.adminKey()}` },
      body: JSON.stringify({ file }),
    });
  } catch (err) {
    throw new StoreFileError(
      `the platform holding ${opts.dataDir} did not answer at ${ops.opsUrl}: ${(err as Error).message}`,
    );
  }
  const answer = (await res.json().catch(() => ({}))) as { bytes?: number; error?: { message?: string } };
  if (!res.ok)
    throw new StoreFileError(
      `the platform refused the backup (${res.status}): ${answer.error?.message ?? 'no reason given'}`,
    );
  return { file, bytes: answer.bytes ?? 0, via: 'running platform' };
}
