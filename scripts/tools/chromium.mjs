// Ensures Debian's `chromium` for the browser tests (playwright-core drives it; a test tool's own browser
// download cannot reach its host from here). Installed with apt-get through the same helper as Redis, so
// `apt-get update` runs once per process and installs are serialised by the shared apt lock.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { InfraError, RUNTIME_DIR, which } from '../infra/lib.mjs';
import { ensureApt } from '../infra/proc.mjs';

const logFile = path.join(RUNTIME_DIR, 'logs', 'chromium-install.log');

/** Path of the chromium binary: SESAME_CHROMIUM_BIN when set, else Debian's, installed if missing. */
export async function ensureChromium({ log = console.log } = {}) {
  const named = process.env.SESAME_CHROMIUM_BIN;
  if (named) {
    if (!existsSync(named)) throw new InfraError(`SESAME_CHROMIUM_BIN=${named} names no file`);
    return named;
  }
  await ensureApt('chromium', 'chromium', { log, logFile });
  return which('chromium');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(await ensureChromium());
