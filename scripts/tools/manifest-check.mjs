// Ensures the manifest checker (scripts/tools/manifest-check: rendered manifests decoded strictly into
// Kubernetes' own Go types) is built: once per version of its sources, from the Go module proxy (pinned in
// its go.mod and go.sum), cached under ~/.cache/sesame-infra like helm.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const src = join(dirname(fileURLToPath(import.meta.url)), 'manifest-check');

function sourceHash() {
  const hash = createHash('sha256');
  for (const f of readdirSync(src).sort()) hash.update(f).update(readFileSync(join(src, f)));
  return hash.digest('hex').slice(0, 12);
}

export function ensureManifestCheck({ log = console.log } = {}) {
  const bin = join(homedir(), '.cache/sesame-infra', `manifest-check-${sourceHash()}`, 'manifest-check');
  if (existsSync(bin)) return bin;
  log('building the manifest checker with go (once per version of its sources)');
  mkdirSync(dirname(bin), { recursive: true });
  const started = Date.now();
  const res = spawnSync('go', ['build', '-o', bin, '.'], {
    cwd: src,
    stdio: 'inherit',
    env: { ...process.env, GOFLAGS: '-mod=mod' },
  });
  if (res.status !== 0) throw new Error(`manifest checker build failed (exit ${res.status})`);
  log(`manifest checker built in ${((Date.now() - started) / 1000).toFixed(0)}s`);
  return bin;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(ensureManifestCheck());
