// Ensures a Helm 3 binary for the chart tests: built once from the Go module proxy (pinned in
// scripts/tools/helm/go.mod and go.sum) and cached under ~/.cache/sesame-infra. `go install helm@v` is not
// used because the module proxy reachable here refuses the version-list request that go install makes.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const VERSION = '3.16.4';
const bin = join(homedir(), '.cache/sesame-infra', `helm-${VERSION}`, 'helm');

export function ensureHelm({ log = console.log } = {}) {
  if (existsSync(bin)) return bin;
  log(`building helm ${VERSION} with go (first run on this machine only)`);
  mkdirSync(dirname(bin), { recursive: true });
  const started = Date.now();
  const res = spawnSync('go', ['build', '-mod=mod', '-o', bin, 'helm.sh/helm/v3/cmd/helm'], {
    cwd: join(here, 'helm'),
    stdio: 'inherit',
    env: { ...process.env, GOFLAGS: '-mod=mod' },
  });
  if (res.status !== 0) throw new Error(`helm build failed (exit ${res.status})`);
  log(`helm built in ${((Date.now() - started) / 1000).toFixed(0)}s`);
  return bin;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(ensureHelm());
