import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { MemoryEventBus } from '@sesame/events';
import { baseConfigSchema, createLogger } from '@sesame/platform';
import { openService } from './open-service';

describe('openService', () => {
  const config = baseConfigSchema.parse({ SESAME_ENV: 'test', LOG_LEVEL: 'warn' });

  it('uses the given logger and bus, labels its metrics with the service, and registers the event metrics', async () => {
    const logger = createLogger({ service: 'given', level: 'silent' });
    const bus = new MemoryEventBus();
    const {
      logger: used,
      metrics,
      stores,
    } = await openService('svc-a', config, { events: true }, { logger, bus });
    try {
      assert.equal(used, logger);
      assert.equal(stores.bus, bus);
      assert.equal(stores.kv, undefined);
      const text = await metrics.registry.metrics();
      assert.match(text, /^sesame_event_outbox_pending\{service="svc-a"\} 0$/m);
    } finally {
      await stores.close();
      await bus.close();
    }
  });

  it('makes a logger at LOG_LEVEL when none is given, and no event metrics without a bus', async () => {
    const { logger, metrics, stores } = await openService('svc-b', config, { kv: true });
    try {
      assert.equal(logger.level, 'warn');
      assert.ok(stores.kv);
      assert.equal(stores.bus, undefined);
      assert.doesNotMatch(await metrics.registry.metrics(), /sesame_event_outbox_pending/);
    } finally {
      await stores.close();
    }
  });
});
