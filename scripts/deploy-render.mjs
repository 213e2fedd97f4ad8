// `npm run deploy:render -- <region> [--image repo:tag]`: prints the manifests that `skaffold deploy -p
// <region>` would apply, without a cluster or skaffold: it reads skaffold.yaml, applies the profile's
// patches (JSON Patch replace/add, the only operations skaffold.yaml uses) and runs `helm template` with the
// release's chart, namespace and values files. The image stands in for skaffold's build output. A region
// without a profile of its own name uses the `region` profile (SESAME_REGION=<region> skaffold deploy -p
// region), whose templates name charts/sesame/values-<region>.yaml: a region is one values file.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { ensureHelm } from './tools/helm.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** A region name: a DNS label (the chart's values schema has the same pattern). */
const regionName = /^[a-z]([a-z0-9-]{0,61}[a-z0-9])?$/;

/** Expands skaffold's environment templates ({{.NAME}}) the way skaffold does for the fields it templates. */
const expand = (value, vars) =>
  JSON.parse(
    JSON.stringify(value).replace(/\{\{\s*\.([A-Z_]+)\s*\}\}/g, (_, name) => {
      if (vars[name] === undefined) throw new Error(`skaffold.yaml uses {{.${name}}}, which is not set`);
      return vars[name];
    }),
  );

/** The Helm release a skaffold profile (or a region's values file, through the `region` profile) deploys. */
export function releaseOf(profile) {
  const config = parse(readFileSync(join(root, 'skaffold.yaml'), 'utf8'));
  let found = config.profiles?.find((p) => p.name === profile);
  const vars = { SESAME_REGION: profile };
  if (!found && regionName.test(profile) && existsSync(join(root, `charts/sesame/values-${profile}.yaml`)))
    found = config.profiles?.find((p) => p.name === 'region');
  if (!found) {
    const names = (config.profiles ?? []).map((p) => p.name).join(', ');
    throw new Error(
      `unknown region ${profile}: no charts/sesame/values-${profile}.yaml and no skaffold.yaml profile of that name (${names})`,
    );
  }
  for (const { op, path, value: template } of found.patches ?? []) {
    const value = expand(template, vars);
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
      'usage: npm run deploy:render -- <region> [--image repo:tag] (a region: charts/sesame/values-<region>.yaml)\n',
    );
    process.exit(64);
  }
  const helm = process.env.SESAME_HELM_BIN ?? ensureHelm({ log: (m) => process.stderr.write(`${m}\n`) });
  const res = spawnSync(helm, renderArgs(profile, imageAt >= 0 ? args[imageAt + 1] : undefined), {
    stdio: 'inherit',
  });
  process.exit(res.status ?? 1);
}
