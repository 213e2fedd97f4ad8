// Ensures promtool (for `promtool test rules` on the chart's alerts): taken from Debian's prometheus
// package with apt-get, unpacked into ~/.cache/sesame-infra rather than installed, so no Prometheus
// server is set up or started on the machine.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const bin = join(homedir(), '.cache/sesame-infra', 'promtool', 'promtool');

function run(cmd, args, cwd) {
  return spawnSync(cmd, args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
}

export function ensurePromtool({ log = console.log } = {}) {
  if (existsSync(bin)) return bin;
  const work = mkdtempSync(join(tmpdir(), 'promtool-'));
  try {
    log("fetching promtool from Debian's prometheus package (first run on this machine only)");
    let res = run('apt-get', ['download', 'prometheus'], work);
    if (res.status !== 0) {
      // No package lists yet on a brand-new machine.
      run('apt-get', ['update'], work);
      res = run('apt-get', ['download', 'prometheus'], work);
    }
    if (res.status !== 0) throw new Error(`apt-get download prometheus failed: ${res.stderr}`);
    const deb = readdirSync(work).find((f) => f.endsWith('.deb'));
    if (!deb) throw new Error('apt-get download prometheus left no .deb');
    res = run('dpkg-deb', ['-x', deb, 'root'], work);
    if (res.status !== 0) throw new Error(`dpkg-deb -x failed: ${res.stderr}`);
    mkdirSync(dirname(bin), { recursive: true });
    renameSync(join(work, 'root/usr/bin/promtool'), bin);
    return bin;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(ensurePromtool());
