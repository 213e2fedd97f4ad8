import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { eventually } from '@sesame/testing';
import pino from 'pino';
import { evictOnAdminEvents } from './evict-on-admin-events';
import { MemoryEventBus } from './memory';

const topics = { adminEvents: 'sesame.admin-events.v1' };
const tokenEvictions = {
  topic: topics.adminEvents,
  group: 'sesame-token-directory-cache',
  cacheName: 'Directory cache',
};

describe('evictOnAdminEvents', () => {
  it("clears the cache on an admin event, in a group of this pod's own that is gone once it stops", async () => {
    const bus = new MemoryEventBus();
    let clears = 0;
    const consumer = await evictOnAdminEvents(
      bus,
      { clear: () => void clears++ },
      pino({ level: 'silent' }),
      tokenEvictions,
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
