import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from '@jest/globals';
import { repoRoot } from '@sesame/testing';

const chartDir = join(repoRoot, 'charts/sesame');

interface SchemaNode {
  properties?: Record<string, SchemaNode>;
  description?: string;
}
function leaves(node: SchemaNode, path: string[] = []): Array<[string, SchemaNode]> {
  return Object.entries(node.properties ?? {}).flatMap(([key, child]) =>
    child.properties
      ? leaves(child, [...path, key])
      : [[[...path, key].join('.'), child] as [string, SchemaNode]],
  );
}

describe('charts/sesame/README.md', () => {
  it('is what scripts/chart-readme.mjs generates from values.schema.json and values.yaml (not stale)', () => {
    const res = spawnSync(process.execPath, [join(repoRoot, 'scripts/chart-readme.mjs'), '--check'], {
      encoding: 'utf8',
    });
    assert.equal(res.status, 0, res.stderr);
  });

  it('lists every value of the schema with its type, default and description', () => {
    const schema = JSON.parse(readFileSync(join(chartDir, 'values.schema.json'), 'utf8')) as SchemaNode;
    const readme = readFileSync(join(chartDir, 'README.md'), 'utf8');
    const all = leaves(schema);
    assert.ok(all.length > 100);
    for (const [path, node] of all) {
      assert.ok(node.description, `${path} has a description`);
      const row = readme.split('\n').find((l) => l.startsWith(`| \`${path}\` |`));
      assert.ok(row, `${path} has a row`);
      assert.equal(row.split(' | ').length, 4, `${path}: value, type, default, description`);
    }
    assert.match(readme, /\| `region` \| string \| `"sandbox"` \|/);
    assert.match(readme, /\| `services\.token\.replicas` \| integer \| `2` \|/);
  });
});
