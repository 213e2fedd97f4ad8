import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from '@jest/globals';
import { repoRoot } from '@sesame/testing';
import { stringify } from 'yaml';
import { environments, ofKind, render, run, tools } from './render';

describe('alerts', () => {
  it.each(environments)('every alert of the %s PrometheusRule passes its promtool test', (env) => {
    const rule = ofKind(render(env), 'PrometheusRule')[0];
    const dir = mkdtempSync(join(tmpdir(), 'sesame-alerts-'));
    writeFileSync(join(dir, 'rules.yaml'), stringify({ groups: rule.spec.groups }));
    const tests = ['alerts.test.yaml', 'alerts-key-rotation.test.yaml'];
    for (const t of tests) copyFileSync(join(repoRoot, 'charts', t), join(dir, t));
    const res = run(tools.promtool, ['test', 'rules', ...tests.map((t) => join(dir, t))]);
    assert.equal(res.status, 0, res.stdout + res.stderr);
    assert.equal(res.stdout.match(/SUCCESS/g)?.length, tests.length);
  });
});
