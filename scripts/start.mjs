// `npm start`: installs what is missing, then runs all six services in one Node process (embedded default).
import { spawn, spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { prettyLine } from './start-output.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const boot = spawnSync(process.execPath, [join(root, 'scripts/bootstrap.mjs')], { stdio: 'inherit' });
if (boot.status !== 0) process.exit(boot.status ?? 1);

// Human lines on a terminal, pino JSON lines anywhere else; SESAME_LOG_FORMAT=pretty|json decides instead.
// The launcher's stdout is a pipe here, so it is told which; in pretty form its log lines are reformatted.
const format = process.env.SESAME_LOG_FORMAT || (process.stdout.isTTY ? 'pretty' : 'json');

// `npm start -- --data-dir DIR --memory --fresh --yes --show-secrets`: the flags go to the launcher.
const child = spawn(
  process.execPath,
  ['--import', 'tsx', join(root, 'embedded/src/main.ts'), ...process.argv.slice(2)],
  {
    cwd: root,
    env: { ...process.env, SESAME_LOG_FORMAT: format },
    stdio: ['inherit', format === 'pretty' ? 'pipe' : 'inherit', 'inherit'],
  },
);
if (format === 'pretty') {
  createInterface({ input: child.stdout }).on('line', (line) =>
    process.stdout.write(`${prettyLine(line)}\n`),
  );
}
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
