import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { MemoryEventBus } from '@sesame/events';
import { createLogger } from '@sesame/platform';
import { topics } from '@sesame/proto';
import { eventually } from '@sesame/testing';
import { evictOnAdminEvents } from './evict-on-admin-events';

describe('evictOnAdminEvents', () => {
  it("clears the cache on an admin event, in a group of this pod's own that is gone once it stops", async () => {
    const bus = new MemoryEventBus();
    let clears = 0;
    const consumer = await evictOnAdminEvents(
      bus,
      { clear: () => void clears++ },
      createLogger({ service: 'token', level: 'silent' }),
    );
    try {
      await eventually(
        async () => bus.groups(),
        (groups) => groups.length === 1,
        2000,
      );
      assert.match(bus.groups()[0]!, /^sesame-token-directory-cache\./);
      await bus.publisher.publish(topics.adminEvents, [{ key: 't', value: new Uint8Array() }]);
      await eventually(
        async () => clears,
        (n) => n >= 1,
        2000,
      );
    } finally {
      await consumer.stop();
    }
    assert.deepEqual(bus.groups(), [], 'no group left behind');
    await bus.close();
  });
});
