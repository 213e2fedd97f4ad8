import { existsSync, statSync } from 'node:fs';
import { dirname, isAbsolute } from 'node:path';
import type { EmbeddedStore } from '@sesame/embedded-store';
import { type Logger, safeEqual } from '@sesame/platform';
import express from 'express';
import { z } from 'zod';
import { isLoopbackHost } from './launcher';
import { BACKUP_PATH } from './store-files';

const body = z.object({ file: z.string().min(1).max(4096) }).strict();

const fail = (res: express.Response, status: number, code: string, message: string) =>
  void res.status(status).json({ status: 'error', error: { code, message } });

/**
 * POST /ops/store/backup `{ "file": "/absolute/path" }`: a consistent online snapshot of the running store
 * (SQLite's online backup: writes keep being answered meanwhile), written by this process to `file`. Served
 * on the ops port only, to loopback callers only, with the admin key: the snapshot holds every tenant's data.
 * Never overwrites a file: an existing one is refused.
 */
export function storeBackupRoute(deps: { store: EmbeddedStore; adminKey: string; logger: Logger }) {
  const router = express.Router();
  router.post(BACKUP_PATH, express.json({ limit: '8kb' }), async (req, res) => {
    const from = req.socket.remoteAddress ?? '';
    if (!isLoopbackHost(from.replace(/^::ffff:/, '')))
      return fail(res, 403, 'loopback_only', 'backups are made for callers on this machine only');
    const auth = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (!auth || !safeEqual(auth, deps.adminKey))
      return fail(res, 401, 'unauthorized', 'a backup needs the admin key (Authorization: Bearer <key>)');
    const parsed = body.safeParse(req.body);
    if (!parsed.success || !isAbsolute(parsed.data.file))
      return fail(res, 400, 'invalid_request', 'the body must be {"file": "<absolute path>"}');
    const { file } = parsed.data;
    if (existsSync(file))
      return fail(res, 409, 'file_exists', `${file} exists; a backup never overwrites a file`);
    if (!existsSync(dirname(file)) || !statSync(dirname(file)).isDirectory())
      return fail(res, 400, 'no_directory', `the directory ${dirname(file)} does not exist`);
    const started = Date.now();
    try {
      await deps.store.backup(file);
    } catch (err) {
      deps.logger.error({ err }, 'store backup failed');
      return fail(res, 500, 'backup_failed', `the backup could not be written: ${(err as Error).message}`);
    }
    const bytes = statSync(file).size;
    deps.logger.info({ file, bytes, ms: Date.now() - started }, 'store backup written');
    res.json({ status: 'ok', file, bytes });
  });
  // A body that is not JSON (or too large): the same error format, never a stack trace.
  router.use(BACKUP_PATH, ((err, _req, res, _next) => {
    const status = (err as { status?: number }).status ?? 400;
    fail(res, status, 'invalid_request', 'the body must be {"file": "<absolute path>"}');
  }) as express.ErrorRequestHandler);
  return router;
}
