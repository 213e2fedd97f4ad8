import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';

export const DEFAULT_ADMIN_URL = 'http://localhost:8080';

/** The file `npm start` writes beside its demo file: where this start really listens (embedded/src/launcher.ts). */
export const PLATFORM_FILE = 'platform.json';

const platformFileSchema = z.object({ adminUrl: z.string().url(), pid: z.number().int().optional() });

/** The admin API's URL and where it came from, for the "cannot reach" message. */
export interface AdminUrl {
  url: string;
  source: string;
}

/** True while a process with this pid runs (EPERM: it runs, as another user). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Where the admin API is, first match wins: --url, SESAME_ADMIN_URL, the URL the running `npm start` wrote to
 * `.sesame/platform.json` (beside the demo file, so SESAME_DEMO_FILE moves both; ignored once its process
 * has stopped), else localhost:8080.
 */
export function discoverAdminUrl(opts: {
  flag: string | undefined;
  env: Record<string, string | undefined>;
  demoFile: string;
}): AdminUrl {
  if (opts.flag) return { url: opts.flag, source: '--url' };
  if (opts.env.SESAME_ADMIN_URL) return { url: opts.env.SESAME_ADMIN_URL, source: 'SESAME_ADMIN_URL' };
  const file = join(dirname(opts.demoFile), PLATFORM_FILE);
  let stale: number | undefined;
  try {
    const parsed = platformFileSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    if (parsed.success) {
      const { adminUrl, pid } = parsed.data;
      if (pid === undefined || alive(pid)) return { url: adminUrl, source: `${file}, written by npm start` };
      stale = pid;
    }
  } catch {
    // No file (npm start has not run here) or not JSON: the default below.
  }
  return {
    url: DEFAULT_ADMIN_URL,
    source:
      stale === undefined
        ? `the default; no ${file}: set SESAME_ADMIN_URL or pass --url`
        : `the default; ${file} is from npm start pid ${stale}, which has stopped`,
  };
}
