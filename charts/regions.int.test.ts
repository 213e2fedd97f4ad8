// Regions are data: a region is charts/sesame/values-<region>.yaml (and one line in docs/regions.md), with
// its name and its kind; nothing in code or tests names it.
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from '@jest/globals';
import { repoRoot } from '@sesame/testing';
import { parseAllDocuments } from 'yaml';
import { type Manifest, chart, environments, ofKind, render, run, tools } from './render';

const deployRender = join(repoRoot, 'scripts/deploy-render.mjs');
const docsOf = (text: string): Manifest[] =>
  parseAllDocuments(text)
    .map((d) => d.toJS())
    .filter((d) => d?.kind);
const envMap = (docs: Manifest[]) =>
  ofKind(docs, 'ConfigMap').find((m) => m.metadata.name.endsWith('-env')).data;

/** Writes a region's values file into the chart for the duration of fn, as a platform team would add it. */
function withRegion<T>(name: string, values: string, fn: (file: string) => T): T {
  const file = join(chart, `values-${name}.yaml`);
  writeFileSync(file, values);
  try {
    return fn(file);
  } finally {
    rmSync(file, { force: true });
  }
}

const cellValues = (name: string, kind: string, tls: boolean) => `region: ${name}
kind: ${kind}
urls:
  auth: https://auth.${name}.sesame.example
  admin: https://admin.${name}.sesame.example
  api: https://api.${name}.sesame.example
stores:
  kafkaBrokers: "kafka-0.kafka.${name}:9092"
  redisUrlSecret: { name: sesame-stores-${name}, key: redis-url }
  mongoUrlSecret: { name: sesame-stores-${name}, key: mongo-url }
grpcTls:
  enabled: ${tls}
  certManager: { enabled: ${tls}, issuerRef: { name: sesame-${name}-ca, kind: ClusterIssuer } }
`;

describe('regions', () => {
  it('ships sandbox, production, production-eu and production-us, each file naming its own region', () => {
    assert.deepEqual([...environments], ['production', 'production-eu', 'production-us', 'sandbox']);
    for (const region of environments) {
      const values = readFileSync(join(chart, `values-${region}.yaml`), 'utf8');
      assert.match(values, new RegExp(`^region: ${region}$`, 'm'), region);
      assert.match(values, /^kind: (sandbox|production)$/m, region);
    }
  });

  it('no two shipped production regions share a host, a broker, a Secret or a certificate issuer', () => {
    const facts = (region: string): Set<string> => {
      const docs = render(region);
      const cm = envMap(docs);
      const secrets = ofKind(docs, 'Deployment').flatMap((d) =>
        d.spec.template.spec.containers.flatMap((c: Manifest) =>
          (c.env ?? []).map((e: Manifest) => e.valueFrom?.secretKeyRef?.name).filter(Boolean),
        ),
      );
      return new Set([
        ...['SESAME_AUTH_URL', 'SESAME_ADMIN_URL', 'SESAME_API_URL'].map((k) => new URL(cm[k]).host),
        ...cm.SESAME_KAFKA_BROKERS.split(','),
        ...secrets.map((s: string) => `secret:${s}`),
        ...ofKind(docs, 'Certificate').map((c) => `issuer:${c.spec.issuerRef.name}`),
      ]);
    };
    const production = environments.filter((r) => envMap(render(r)).SESAME_ENV_KIND === 'production');
    assert.deepEqual(production, ['production', 'production-eu', 'production-us']);
    for (const a of production)
      for (const b of production.filter((r) => r > a)) {
        const theirs = facts(b);
        assert.deepEqual(
          [...facts(a)].filter((v) => theirs.has(v)),
          [],
          `${a} and ${b}`,
        );
      }
  });

  it('a region made on the fly is one values file: deploy:render, helm lint --strict and the manifest checker pass', () => {
    const name = `cell-${process.pid}`;
    withRegion(name, cellValues(name, 'production', true), (file) => {
      const res = run(process.execPath, [deployRender, name]);
      assert.equal(res.status, 0, res.stderr);
      const docs = docsOf(res.stdout);
      assert.equal(ofKind(docs, 'Deployment').length, 6);
      assert.deepEqual(
        {
          env: envMap(docs).SESAME_ENV,
          kind: envMap(docs).SESAME_ENV_KIND,
          auth: envMap(docs).SESAME_AUTH_URL,
        },
        { env: name, kind: 'production', auth: `https://auth.${name}.sesame.example` },
      );
      // The production rules follow the kind: one mTLS certificate per service from the region's issuer.
      const certs = ofKind(docs, 'Certificate');
      assert.equal(certs.length, 6);
      assert.ok(certs.every((c) => c.spec.issuerRef.name === `sesame-${name}-ca`));
      const lint = run(tools.helm, ['lint', chart, '--strict', '-f', file]);
      assert.equal(lint.status, 0, `${lint.stdout}${lint.stderr}`);
      const check = run(tools.manifestCheck, [], res.stdout);
      assert.equal(check.status, 0, check.stdout + check.stderr);
    });
  });

  it('the rules follow the kind, not the name: a sandbox-kind region named production-ap runs without mTLS', () => {
    withRegion('production-ap', cellValues('production-ap', 'sandbox', false), () => {
      const res = run(process.execPath, [deployRender, 'production-ap']);
      assert.equal(res.status, 0, res.stderr);
      const docs = docsOf(res.stdout);
      assert.equal(envMap(docs).SESAME_ENV_KIND, 'sandbox');
      assert.equal(ofKind(docs, 'Certificate').length, 0);
    });
  });

  it('a production-kind region refuses plaintext gRPC and http hosts, naming the value', () => {
    const name = `cell-${process.pid}-plain`;
    withRegion(name, cellValues(name, 'production', false), () => {
      const res = run(process.execPath, [deployRender, name]);
      assert.notEqual(res.status, 0);
      assert.match(res.stderr, new RegExp(`grpcTls\\.enabled: ${name} needs mutual TLS`));
    });
    const http = run(tools.helm, [
      'template',
      's',
      chart,
      '-f',
      join(chart, 'values-production-us.yaml'),
      '--set',
      'urls.admin=http://admin.us.sesame.example',
    ]);
    assert.notEqual(http.status, 0);
    assert.match(
      http.stderr,
      /urls\.admin: production-us is a production region; its hosts .* must be https:\/\//,
    );
  });

  it('refuses a region name that is not a DNS label and an unknown kind, naming both', () => {
    const res = run(tools.helm, ['template', 's', chart, '--set', 'region=Prod_US', '--set', 'kind=staging']);
    assert.notEqual(res.status, 0);
    assert.match(res.stderr, /region: Does not match pattern/);
    assert.match(res.stderr, /kind: kind must be one of the following: "sandbox", "production"/);
  });

  it('still renders a values file of chart 0.1 that sets environment: its name, and production for production-eu', () => {
    const res = run(tools.helm, [
      'template',
      's',
      chart,
      '-f',
      join(chart, 'values-production-eu.yaml'),
      '--set',
      'region=sandbox,kind=sandbox,environment=production-eu',
    ]);
    assert.equal(res.status, 0, res.stderr);
    const cm = envMap(docsOf(res.stdout));
    assert.deepEqual([cm.SESAME_ENV, cm.SESAME_ENV_KIND], ['production-eu', 'production']);
  });

  it('an unknown region fails deploy:render naming the values file it looked for', () => {
    const res = run(process.execPath, [deployRender, 'nowhere-1']);
    assert.notEqual(res.status, 0);
    assert.match(res.stderr, /unknown region nowhere-1: no charts\/sesame\/values-nowhere-1\.yaml/);
  });
});

describe('NOTES.txt', () => {
  it('prints the region, its three hosts, the Secrets to create and the next steps', () => {
    // helm template does not render NOTES.txt (helm install does, with a cluster): render it as a ConfigMap
    // in a copy of the chart.
    const copy = mkdtempSync(join(tmpdir(), 'sesame-notes-'));
    try {
      cpSync(chart, copy, { recursive: true });
      const notes = readFileSync(join(copy, 'templates/NOTES.txt'), 'utf8');
      writeFileSync(join(copy, 'templates/_notes.tpl'), `{{- define "test.notes" -}}\n${notes}{{- end -}}\n`);
      writeFileSync(
        join(copy, 'templates/notes.yaml'),
        'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: notes }\ndata:\n  notes: |\n    {{- include "test.notes" . | nindent 4 }}\n',
      );
      const res = run(tools.helm, [
        'template',
        'sesame',
        copy,
        '-n',
        'sesame-production-us',
        '-f',
        join(chart, 'values-production-us.yaml'),
        '--show-only',
        'templates/notes.yaml',
      ]);
      assert.equal(res.status, 0, res.stderr);
      const text: string = docsOf(res.stdout)[0].data.notes;
      assert.match(text, /Region: production-us \(kind production\)/);
      assert.match(text, /auth +https:\/\/auth\.us\.sesame\.example .*RP ID \(auth\.us\.sesame\.example\)/);
      assert.match(text, /admin +https:\/\/admin\.us\.sesame\.example/);
      assert.match(text, /api +https:\/\/api\.us\.sesame\.example/);
      for (const secret of [
        'sesame-stores-us',
        'sesame-keys-us',
        'sesame-admin-us',
        'sesame-auth-us',
        'sesame-mgmt-us',
      ])
        assert.ok(text.includes(secret), secret);
      assert.match(text, /rollout status deployment .* -n|kubectl -n sesame-production-us rollout status/);
      assert.match(text, /Upgrade and rollback/);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });
});
