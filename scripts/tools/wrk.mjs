import path from 'node:path';
// Ensures wrk, the load generator of the static-document benchmark (bench/jwks.bench.ts): Debian's `wrk`
// package, installed with apt-get through the same helper as Redis and chromium. wrk parses answers in C
// on its own thread, so on a 2-core machine it leaves the server a core; autocannon (JavaScript) spends
// more CPU per answer than the server does on a prepared document and becomes what the figure measures.
import { fileURLToPath } from 'node:url';
import { RUNTIME_DIR, which } from '../infra/lib.mjs';
import { ensureApt } from '../infra/proc.mjs';

/** Path of the wrk binary, installed from Debian's packages if missing. */
export async function ensureWrk({ log = console.log } = {}) {
  await ensureApt('wrk', 'wrk', { log, logFile: path.join(RUNTIME_DIR, 'logs', 'wrk-install.log') });
  return which('wrk');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(await ensureWrk());
