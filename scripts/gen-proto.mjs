// Generates typed gRPC servers/clients and event messages from proto/ with ts-proto (run by bootstrap).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'libs/proto/src/gen');
const buf = join(root, 'node_modules/.bin/buf');
if (!existsSync(buf)) {
  console.error('gen-proto: node_modules/.bin/buf is missing; run `npm run bootstrap` first');
  process.exit(1);
}
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const run = spawnSync(buf, ['generate'], { cwd: join(root, 'proto'), stdio: 'inherit' });
if (run.status !== 0) process.exit(run.status ?? 1);
writeFileSync(join(out, '.stamp'), new Date().toISOString());
