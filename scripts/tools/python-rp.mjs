// Ensures the Python relying party of the standard-RP e2e test (e2e/python-rp/rp.py): a virtual environment
// under .sesame/tools/python-rp with Authlib and requests installed by pip from the Python package index, at
// the pinned versions below. Made once per checkout (again when the pins change); needs python3 with venv.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const venv = join(root, '.sesame/tools/python-rp');
const python = join(venv, 'bin/python');
const stamp = join(venv, 'requirements.txt');

/** What the RP script needs, pinned: a change makes a new environment. */
export const PYTHON_RP_REQUIREMENTS = ['Authlib==1.9.6', 'requests==2.34.2'];

function run(cmd, args) {
  const res = spawnSync(cmd, args, { encoding: 'utf8' });
  if (res.error) throw new Error(`${cmd} ${args.join(' ')}: ${res.error.message}`);
  if (res.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${res.status}): ${res.stderr}`);
  return res.stdout;
}

/** Path of the environment's python with the RP's packages: SESAME_PYTHON_RP_BIN when set, else ensured. */
export function ensurePythonRp({ log = console.log } = {}) {
  const named = process.env.SESAME_PYTHON_RP_BIN;
  if (named) {
    if (!existsSync(named)) throw new Error(`SESAME_PYTHON_RP_BIN=${named} names no file`);
    return named;
  }
  const wanted = `${PYTHON_RP_REQUIREMENTS.join('\n')}\n`;
  if (existsSync(python) && existsSync(stamp) && readFileSync(stamp, 'utf8') === wanted) return python;
  log(`making the Python RP's environment (${PYTHON_RP_REQUIREMENTS.join(', ')}) in .sesame/tools/python-rp`);
  rmSync(venv, { recursive: true, force: true });
  run('python3', ['-m', 'venv', venv]);
  run(python, ['-m', 'pip', 'install', '--disable-pip-version-check', '--quiet', ...PYTHON_RP_REQUIREMENTS]);
  run(python, ['-c', 'import authlib, requests']);
  writeFileSync(stamp, wanted);
  return python;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(ensurePythonRp());
