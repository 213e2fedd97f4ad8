import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { topicReplication } from './kafka';

describe('topicReplication', () => {
  it('three brokers or more: 3 copies, 2 in sync', () => {
    assert.deepEqual(topicReplication(3), { replicationFactor: 3, minInsyncReplicas: 2 });
    assert.deepEqual(topicReplication(5), { replicationFactor: 3, minInsyncReplicas: 2 });
  });

  it('fewer brokers: one copy per broker, 1 in sync (a development broker keeps working)', () => {
    assert.deepEqual(topicReplication(1), { replicationFactor: 1, minInsyncReplicas: 1 });
    assert.deepEqual(topicReplication(2), { replicationFactor: 2, minInsyncReplicas: 1 });
    assert.deepEqual(topicReplication(0), { replicationFactor: 1, minInsyncReplicas: 1 });
  });

  it('configured values win, each on its own', () => {
    assert.deepEqual(topicReplication(1, { replicationFactor: 3, minInsyncReplicas: 2 }), {
      replicationFactor: 3,
      minInsyncReplicas: 2,
    });
    assert.deepEqual(topicReplication(3, { replicationFactor: 2 }), {
      replicationFactor: 2,
      minInsyncReplicas: 1,
    });
    assert.deepEqual(topicReplication(5, { minInsyncReplicas: 1 }), {
      replicationFactor: 3,
      minInsyncReplicas: 1,
    });
  });
});
