// Bundles the hosted pages' browser code that has npm dependencies into served assets: auth's passkey script
// (services/auth/browser/passkeys.js with @simplewebauthn/browser) → services/auth/src/pages/assets/passkeys.js,
// a generated file (not in git) that the asset server hashes and serves like the hand-written ones.
// scripts/bootstrap.mjs runs this whenever the source or the installed packages are newer than the output,
// so `npm start`, `npm run jest` and `npm run build` always serve the current bundle.
import { existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

export const browserBundles = [
  {
    entry: join(root, 'services/auth/browser/passkeys.js'),
    outfile: join(root, 'services/auth/src/pages/assets/passkeys.js'),
    // What else makes the output stale: the package it bundles.
    inputs: [join(root, 'services/auth/package.json'), join(root, 'pnpm-lock.yaml')],
  },
];

const mtime = (p) => (existsSync(p) ? statSync(p).mtimeMs : 0);

/** The bundles whose output is missing or older than one of their inputs. */
export const staleBundles = () =>
  browserBundles.filter((b) => mtime(b.outfile) < Math.max(mtime(b.entry), ...b.inputs.map(mtime)));

export async function bundleBrowser(bundles = browserBundles) {
  for (const b of bundles) {
    await build({
      entryPoints: [b.entry],
      outfile: b.outfile,
      bundle: true,
      platform: 'browser',
      format: 'iife',
      target: ['es2020'],
      minify: true,
      legalComments: 'inline',
      logLevel: 'warning',
    });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await bundleBrowser();
