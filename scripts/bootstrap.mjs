// Installs what is missing (workspace packages via pnpm, generated proto code). Idempotent and fast when
// nothing changed, so `npm start`, `npm test` and `npm run sesame` all call it first.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PNPM_VERSION = '9.15.9';
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const quiet = process.argv.includes('--quiet');
const say = (msg) => quiet || console.log(`[bootstrap] ${msg}`);

const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 20 || (major === 20 && minor < 10)) {
  console.error(`[bootstrap] Node.js >= 20.10 is required, found ${process.versions.node}`);
  process.exit(1);
}

const mtime = (p) => (existsSync(p) ? statSync(p).mtimeMs : 0);
function newestUnder(dir, pred) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestUnder(p, pred));
    else if (pred(entry.name)) newest = Math.max(newest, mtime(p));
  }
  return newest;
}

export function pnpm(args, opts = {}) {
  return spawnSync('npx', ['--yes', `pnpm@${PNPM_VERSION}`, ...args], {
    cwd: root,
    stdio: 'inherit',
    ...opts,
  });
}

const installMarker = join(root, 'node_modules/.modules.yaml');
const manifests = [join(root, 'pnpm-lock.yaml'), join(root, 'package.json')];
for (const group of ['libs', 'services', 'examples']) {
  const dir = join(root, group);
  if (existsSync(dir)) for (const d of readdirSync(dir)) manifests.push(join(dir, d, 'package.json'));
}
for (const d of ['embedded', 'cli', 'e2e', 'bench']) manifests.push(join(root, d, 'package.json'));
const newestManifest = Math.max(...manifests.map(mtime));
if (!existsSync(installMarker) || mtime(installMarker) < newestManifest) {
  say(`installing workspace packages with pnpm ${PNPM_VERSION}`);
  const frozen = process.env.CI ? ['--frozen-lockfile'] : [];
  const res = pnpm(['install', '--reporter=append-only', ...frozen]);
  if (res.status !== 0) process.exit(res.status ?? 1);
}

const stamp = join(root, 'libs/proto/src/gen/.stamp');
if (
  mtime(stamp) <
  Math.max(
    newestUnder(join(root, 'proto'), (n) => n.endsWith('.proto') || n.endsWith('.yaml')),
    mtime(join(root, 'scripts/gen-proto.mjs')),
  )
) {
  say('generating gRPC and event code from proto/');
  execFileSync(process.execPath, [join(root, 'scripts/gen-proto.mjs')], { stdio: 'inherit' });
}

// Browser code with npm dependencies (auth's passkey script) is bundled into a served asset.
const { bundleBrowser, staleBundles } = await import('./bundle-browser.mjs');
const stale = staleBundles();
if (stale.length) {
  say('bundling the hosted pages’ browser scripts');
  await bundleBrowser(stale);
}

// The admin CLI's prebuilt bundle (`npm run sesame` runs it: no TypeScript compile per call).
const { buildCli, staleCli } = await import('./build-cli.mjs');
if (staleCli()) {
  say('bundling the admin CLI');
  try {
    await buildCli();
  } catch (err) {
    // Not fatal: `npm run sesame` falls back to running the sources through tsx.
    console.error(`[bootstrap] could not bundle the CLI (npm run sesame will use tsx): ${err.message}`);
  }
}
