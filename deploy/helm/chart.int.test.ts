import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, it } from '@jest/globals';
import { repoRoot } from '@sesame/testing';

const chart = join(repoRoot, 'deploy/helm/sesame');
const helm = process.env.SESAME_HELM_BIN ?? 'helm';
const environments = ['sandbox', 'production', 'production-eu'] as const;

function render(env: string): string {
  const res = spawnSync(helm, ['template', 'sesame', chart, '-f', join(chart, `values-${env}.yaml`)], {
    encoding: 'utf8',
  });
  assert.equal(res.status, 0, res.stderr);
  return res.stdout;
}

const docs = (yaml: string) => yaml.split(/^---$/m).filter((d) => /^kind:/m.test(d));
const kindCount = (yaml: string, kind: string) =>
  docs(yaml).filter((d) => new RegExp(`^kind: ${kind}$`, 'm').test(d)).length;

describe('Helm chart', () => {
  it('lints for every environment', () => {
    for (const env of environments) {
      const res = spawnSync(helm, ['lint', chart, '-f', join(chart, `values-${env}.yaml`)], {
        encoding: 'utf8',
      });
      assert.equal(res.status, 0, `${env}: ${res.stdout}${res.stderr}`);
    }
  });

  for (const env of environments) {
    it(`renders six hardened Deployments with gRPC probes and their Services for ${env}`, () => {
      const out = render(env);
      assert.equal(kindCount(out, 'Deployment'), 6);
      assert.equal(kindCount(out, 'Service'), 6);
      assert.equal(kindCount(out, 'NetworkPolicy'), 6);
      assert.match(out, new RegExp(`SESAME_ENV: "${env}"`));
      for (const d of docs(out).filter((x) => /^kind: Deployment$/m.test(x))) {
        assert.match(d, /readinessProbe:\n\s+grpc: \{ port: 50051 \}/);
        assert.match(d, /runAsNonRoot: true/);
        assert.match(d, /readOnlyRootFilesystem: true/);
        assert.match(d, /drop: \["ALL"\]/);
      }
    });
  }

  it('production-eu shares no host, store secret or key secret with production', () => {
    const prod = render('production');
    const eu = render('production-eu');
    const values = (yaml: string, re: RegExp) => new Set([...yaml.matchAll(re)].map((m) => m[1]));
    const hosts = /SESAME_(?:AUTH|ADMIN|API)_URL: "([^"]+)"/g;
    const secrets = /secretKeyRef:\n\s+name: (\S+)/g;
    for (const re of [hosts, secrets]) {
      const shared = [...values(prod, re)].filter((v) => values(eu, re).has(v));
      assert.deepEqual(shared, [], `shared between production and production-eu: ${shared.join(', ')}`);
    }
    assert.notEqual(
      prod.match(/SESAME_KAFKA_BROKERS: "([^"]+)"/)?.[1],
      eu.match(/SESAME_KAFKA_BROKERS: "([^"]+)"/)?.[1],
    );
  });
});
