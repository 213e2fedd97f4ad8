// Test support for the chart tests: renders an environment exactly as `npm run deploy:render` does (from
// skaffold.yaml's profile), parses the documents, and finds the tools (helm, the manifest checker, promtool),
// which scripts/test.mjs builds or fetches once per machine and names in the environment.
import assert from 'node:assert/strict';
import { type SpawnSyncReturns, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from '@sesame/testing';
import { parseAllDocuments } from 'yaml';

export const environments = ['sandbox', 'production', 'production-eu'] as const;
export type Env = (typeof environments)[number];
export const chart = join(repoRoot, 'charts/sesame');

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
