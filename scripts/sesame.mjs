// `npm run sesame -- …`: runs the prebuilt CLI bundle (cli/dist/sesame.mjs) when it is current, which is
// the fast path (no bootstrap check, no TypeScript compile). Otherwise it bootstraps (which rebuilds the
// bundle) and runs that, and if the bundle still cannot be had, the sources through tsx as before.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { cliBundle, staleCli } from './build-cli.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const installed = existsSync(join(root, 'node_modules/.modules.yaml'));
if (!installed || staleCli()) {
  const boot = spawnSync(process.execPath, [join(root, 'scripts/bootstrap.mjs'), '--quiet'], {
    stdio: 'inherit',
  });
  if (boot.status !== 0) process.exit(boot.status ?? 1);
}
if (existsSync(cliBundle) && !staleCli()) {
  await import(pathToFileURL(cliBundle).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(pathToFileURL(join(root, 'cli/src/main.ts')).href);
}
