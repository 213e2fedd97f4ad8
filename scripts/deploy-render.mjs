// `npm run deploy:render -- <profile> [--image repo:tag]`: prints the manifests that `skaffold deploy -p
// <profile>` would apply, without a cluster or skaffold: it reads skaffold.yaml, applies the profile's
// patches (JSON Patch replace/add, the only operations skaffold.yaml uses) and runs `helm template` with the
// release's chart, namespace and values files. The image stands in for skaffold's build output.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { ensureHelm } from './tools/helm.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The Helm release a skaffold profile deploys, after its patches. */
export function releaseOf(profile) {
  const config = parse(readFileSync(join(root, 'skaffold.yaml'), 'utf8'));
  const found = config.profiles?.find((p) => p.name === profile);
  if (!found) {
    const names = (config.profiles ?? []).map((p) => p.name).join(', ');
    throw new Error(`unknown profile ${profile}; skaffold.yaml has ${names}`);
  }
  for (const { op, path, value } of found.patches ?? []) {
    if (op !== 'replace' && op !== 'add') throw new Error(`patch op ${op} is not supported here`);
    const keys = path.split('/').slice(1);
    const last = keys.pop();
    let at = config;
    for (const k of keys) at = at[k];
    at[last] = value;
  }
  const release = config.deploy.helm.releases[0];
  return { release, image: config.build.artifacts[0].image };
}

export function renderArgs(profile, image) {
  const { release, image: artifact } = releaseOf(profile);
  const [repository, tag] = (image ?? `${artifact}:dev`).split(':');
  return [
    'template',
    release.name,
    join(root, release.chartPath),
    '--namespace',
    release.namespace,
    ...release.valuesFiles.flatMap((f) => ['-f', join(root, f)]),
    '--set',
    `image.repository=${repository}`,
    '--set',
    `image.tag=${tag ?? 'dev'}`,
  ];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const profile = args.find((a) => !a.startsWith('--'));
  const imageAt = args.indexOf('--image');
  if (!profile) {
    process.stderr.write(
      'usage: npm run deploy:render -- <sandbox|production|production-eu> [--image repo:tag]\n',
    );
    process.exit(64);
  }
  const helm = process.env.SESAME_HELM_BIN ?? ensureHelm({ log: (m) => process.stderr.write(`${m}\n`) });
  const res = spawnSync(helm, renderArgs(profile, imageAt >= 0 ? args[imageAt + 1] : undefined), {
    stdio: 'inherit',
  });
  process.exit(res.status ?? 1);
}
