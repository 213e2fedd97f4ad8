import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { servesByEsr } from '@sesame/mongo';
import { activityLogIndexes } from './activity-logs.mongo';
import { activityLogQueryShapes, flowListShape, residualAllowed } from './query-shapes';

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

  it('lists every support filter combination (2^5 equality sets, alone and with an address) and the spec query shapes', () => {
    assert.equal(shapes.filter((s) => s.name.startsWith('listFlows')).length, 64);
    assert.equal(shapes.filter((s) => s.name.startsWith('listFlows(attemptedEmail')).length, 32);
    assert.equal(shapes.filter((s) => s.name.startsWith('eraseFlows')).length, 2);
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

  it('a listing by typed address is served only by the address index (dropping it fails the test)', () => {
    const byAddress = flowListShape({ attemptedEmail: 'x@example.com', status: 'failure' });
    assert.deepEqual(byAddress.equality, ['tenantId', 'attemptedEmail']);
    const withoutAddressIndex = indexes.filter((i) => !('attemptedEmail' in i));
    assert.equal(withoutAddressIndex.length, indexes.length - 1);
    assert.equal(
      withoutAddressIndex.some((i) => servesByEsr(i, byAddress)),
      false,
    );
    assert.equal(
      indexes.some((i) => servesByEsr(i, byAddress)),
      true,
    );
  });
});
