// Test support for the chart tests: renders an environment exactly as `npm run deploy:render` does (from
// skaffold.yaml's profile), parses the documents, and finds the tools (helm, the manifest checker, promtool),
// which scripts/test.mjs builds or fetches once per machine and names in the environment.
import assert from 'node:assert/strict';
import { type SpawnSyncReturns, execFileSync, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from '@sesame/testing';
import { parseAllDocuments } from 'yaml';

export const chart = join(repoRoot, 'charts/sesame');

/**
 * The shipped regions: one per values-<region>.yaml that git knows (committed or staged), so that adding a
 * region's values file adds it to every chart test, and a test's temporary region file never leaks into the
 * others.
 */
export function shippedRegions(): string[] {
  const files = execFileSync('git', ['ls-files', '--', 'charts/sesame/values-*.yaml'], {
    cwd: repoRoot,
    encoding: 'utf8',
  });
  return files
    .split('\n')
    .map((f) => /^charts\/sesame\/values-([a-z0-9-]+)\.yaml$/.exec(f.trim())?.[1])
    .filter((r): r is string => r !== undefined)
    .sort();
}
export const environments: readonly string[] = shippedRegions();
export type Env = string;

export const tools = {
  helm: process.env.SESAME_HELM_BIN ?? 'helm',
  manifestCheck: process.env.SESAME_MANIFEST_CHECK_BIN ?? 'manifest-check',
  promtool: process.env.SESAME_PROMTOOL_BIN ?? 'promtool',
};

// biome-ignore lint/suspicious/noExplicitAny: rendered manifests are checked against Kubernetes' types by the Go checker, not by TypeScript.
export type Manifest = any;

export function run(cmd: string, args: string[], input?: string): SpawnSyncReturns<string> {
  return spawnSync(cmd, args, { encoding: 'utf8', input, maxBuffer: 64 << 20 });
}

const rendered = new Map<Env, string>();
/** The YAML stream `npm run deploy:render -- <env>` prints. */
export function renderText(env: Env): string {
  let text = rendered.get(env);
  if (text === undefined) {
    const res = run(process.execPath, [join(repoRoot, 'scripts/deploy-render.mjs'), env]);
    assert.equal(res.status, 0, res.stderr);
    text = res.stdout;
    rendered.set(env, text);
  }
  return text;
}

export function render(env: Env): Manifest[] {
  return parseAllDocuments(renderText(env))
    .map((d) => d.toJS())
    .filter((d) => d?.kind);
}

export const ofKind = (docs: Manifest[], kind: string): Manifest[] => docs.filter((d) => d.kind === kind);
/** The service a manifest belongs to (app.kubernetes.io/name). */
export const serviceOf = (m: Manifest): string => m.metadata.labels?.['app.kubernetes.io/name'];
