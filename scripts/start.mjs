// `npm start`: installs what is missing, then runs all six services in one Node process (embedded default).
import { spawn, spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const boot = spawnSync(process.execPath, [join(root, 'scripts/bootstrap.mjs')], { stdio: 'inherit' });
if (boot.status !== 0) process.exit(boot.status ?? 1);

// `npm start -- --data-dir DIR --memory --fresh --yes`: the flags go to the launcher.
const child = spawn(
  process.execPath,
  ['--import', 'tsx', join(root, 'embedded/src/main.ts'), ...process.argv.slice(2)],
  {
    cwd: root,
    stdio: 'inherit',
  },
);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
