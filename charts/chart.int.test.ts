import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from '@jest/globals';
import { repoRoot } from '@sesame/testing';
import { chart, environments, ofKind, render, renderText, run, tools } from './render';

interface Checked {
  index: number;
  kind: string;
  name: string;
  problems: string[];
}

function checkStrictly(yaml: string): { status: number | null; results: Checked[] } {
  const res = run(tools.manifestCheck, [], yaml);
  assert.ok(res.status === 0 || res.status === 1, `manifest-check failed to run: ${res.stderr}`);
  const results = res.stdout
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Checked);
  return { status: res.status, results };
}

describe('Helm chart (charts/sesame)', () => {
  for (const env of environments) {
    it(`lints with values-${env}.yaml against values.schema.json`, () => {
      const res = run(tools.helm, ['lint', chart, '--strict', '-f', join(chart, `values-${env}.yaml`)]);
      assert.equal(res.status, 0, `${res.stdout}${res.stderr}`);
    });

    it(`${env}: every rendered manifest decodes strictly into Kubernetes' own types`, () => {
      const { status, results } = checkStrictly(renderText(env));
      const bad = results.filter((r) => r.problems.length > 0);
      assert.deepEqual(bad, []);
      assert.equal(status, 0);
      assert.equal(results.length, render(env).length, 'every document was checked');
      assert.equal(ofKind(render(env), 'Deployment').length, 6);
    });
  }

  it('the manifest checker refuses an unknown field, a wrong type and a missing required field', () => {
    const deployment = (container: string) =>
      `apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: x }\nspec:\n  selector: { matchLabels: { a: b } }\n  template:\n    metadata: { labels: { a: b } }\n    spec:\n      containers:\n        - ${container}\n`;
    const cases = {
      unknown: [deployment('{ name: x, image: x, imagePulPolicy: Always }'), /unknown field.*imagePulPolicy/],
      type: [
        deployment('{ name: x, image: x, ports: [{ containerPort: "80" }] }'),
        /cannot unmarshal string/,
      ],
      required: [
        deployment('{ image: x }'),
        /missing required field spec\.template\.spec\.containers\[0\]\.name/,
      ],
      kind: [
        'apiVersion: v1\nkind: Secrett\nmetadata: { name: x }\n',
        /no Go type for apiVersion "v1" kind "Secrett"/,
      ],
    } as const;
    for (const [what, [yaml, expected]] of Object.entries(cases)) {
      const { status, results } = checkStrictly(yaml);
      assert.equal(status, 1, what);
      assert.match(results[0]!.problems.join('\n'), expected, what);
    }
  });

  it('a values file with a misspelt key and a wrong type fails helm template and helm lint naming both', () => {
    const broken = join(repoRoot, 'charts/testdata/values-typo.yaml');
    const template = run(tools.helm, [
      'template',
      's',
      chart,
      '-f',
      join(chart, 'values-sandbox.yaml'),
      '-f',
      broken,
    ]);
    assert.notEqual(template.status, 0);
    assert.match(template.stderr, /services\.token: Additional property replicaz is not allowed/);
    assert.match(template.stderr, /shutdownTimeoutMs: Invalid type\. Expected: integer, given: string/);
    const lint = run(tools.helm, ['lint', chart, '-f', broken]);
    assert.notEqual(lint.status, 0);
    assert.match(lint.stdout + lint.stderr, /services\.token: Additional property replicaz is not allowed/);
  });

  it('production refuses to render without gRPC mutual TLS, naming grpcTls.enabled', () => {
    for (const env of ['production', 'production-eu']) {
      const res = run(tools.helm, [
        'template',
        's',
        chart,
        '-f',
        join(chart, `values-${env}.yaml`),
        '--set',
        'grpcTls.enabled=false',
      ]);
      assert.notEqual(res.status, 0, env);
      assert.match(res.stderr, new RegExp(`grpcTls\\.enabled: ${env} needs mutual TLS`));
    }
  });
});
