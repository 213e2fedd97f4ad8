import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { activityLogIndexes } from './activity-logs.mongo';
import { type QueryShape, activityLogQueryShapes, flowListShape, residualAllowed } from './query-shapes';

type IndexKeys = Record<string, 1 | -1>;

/**
 * Whether an index serves a query shape by the equality-sort-range rule: its first keys are exactly the
 * shape's equality fields (any order), the next ones its sort in order (all in the sort's direction or all
 * reversed), and each range field is one of those sort keys or follows them.
 */
function servesByEsr(index: IndexKeys, shape: QueryShape): boolean {
  const keys = Object.entries(index);
  const eq = new Set(shape.equality);
  const prefix = keys.slice(0, eq.size).map(([k]) => k);
  if (prefix.length !== eq.size || !prefix.every((k) => eq.has(k))) return false;
  const sort = Object.entries(shape.sort);
  const next = keys.slice(eq.size, eq.size + sort.length);
  if (next.length !== sort.length) return false;
  const sameWay = sort.every(([k, dir], i) => next[i]![0] === k && next[i]![1] === dir);
  const reversed = sort.every(([k, dir], i) => next[i]![0] === k && next[i]![1] === -dir);
  if (!sameWay && !reversed) return false;
  const served = keys.slice(eq.size).map(([k]) => k);
  return shape.range.every((field) => served.includes(field));
}

const indexes = activityLogIndexes();

describe('activity-log indexes: every query shape the repository issues has an index (ESR)', () => {
  const shapes = activityLogQueryShapes();

  it.each(shapes.map((s) => [s.name, s] as const))('%s', (_name, shape) => {
    const serving = indexes.filter((index) => servesByEsr(index, shape));
    assert.ok(
      serving.length > 0,
      `no declared index serves ${shape.name}: equality ${shape.equality.join(', ')}, sort ${JSON.stringify(shape.sort)}`,
    );
    for (const field of shape.residual) {
      assert.ok(
        field in residualAllowed,
        `${shape.name} leaves ${field} to the documents: not an allowed residual`,
      );
    }
  });

  it('lists every support filter combination (2^5 equality sets) and the spec query shapes', () => {
    assert.equal(shapes.filter((s) => s.name.startsWith('listFlows')).length, 32);
    assert.equal(shapes.filter((s) => s.name.startsWith('query')).length, 4);
  });

  it('the rule refuses what it must (so the test can fail)', () => {
    const byUser = flowListShape({ userId: 'x' });
    assert.equal(
      servesByEsr({ tenantId: 1, timestamp: -1, flowId: -1 }, byUser),
      false,
      'user not in the index',
    );
    assert.equal(
      servesByEsr({ tenantId: 1, userId: 1, flowId: -1, timestamp: -1 }, byUser),
      false,
      'sort order',
    );
    assert.equal(servesByEsr({ tenantId: 1, userId: 1, timestamp: -1 }, byUser), false, 'sort not complete');
    assert.equal(
      servesByEsr({ tenantId: 1, timestamp: -1, userId: 1, flowId: -1 }, byUser),
      false,
      'range before eq',
    );
    assert.equal(
      servesByEsr({ userId: 1, tenantId: 1, timestamp: 1, flowId: 1 }, byUser),
      true,
      'reversed is fine',
    );
    const withoutUserIndex = indexes.filter(
      (i) => JSON.stringify(Object.keys(i)) !== '["tenantId","userId","timestamp","flowId"]',
    );
    assert.equal(withoutUserIndex.length, indexes.length - 1);
    assert.equal(
      withoutUserIndex.some((i) => servesByEsr(i, byUser)),
      false,
      'dropping the index fails the test',
    );
  });
});
