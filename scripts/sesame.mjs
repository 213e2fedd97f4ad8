#!/usr/bin/env node
// The admin CLI: `npx sesame …` (the package's bin), `node scripts/sesame.mjs …` or `npm run sesame -- …`.
// Fast path: the prebuilt bundle (cli/dist/sesame.mjs) when it is current: no bootstrap check, no TypeScript
// compile, one stat per file it was built from. Otherwise it bootstraps (which installs what is missing and
// rebuilds the bundle) and runs that, and if the bundle still cannot be had, the sources through tsx.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { cliBundle, staleCli } from './build-cli.mjs';

if (staleCli()) {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  const boot = spawnSync(process.execPath, [join(root, 'scripts/bootstrap.mjs'), '--quiet'], {
    stdio: 'inherit',
  });
  if (boot.status !== 0) process.exit(boot.status ?? 1);
  if (staleCli()) {
    const { register } = await import('tsx/esm/api');
    register();
    await import(pathToFileURL(join(root, 'cli/src/main.ts')).href);
  } else {
    await import(pathToFileURL(cliBundle).href);
  }
} else {
  await import(pathToFileURL(cliBundle).href);
}
