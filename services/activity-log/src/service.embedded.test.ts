import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import type { EmbeddedStore } from '@sesame/embedded-store';
import { tempEngines } from '@sesame/embedded-store/testing';
import { createEmbeddedEventBus } from '@sesame/events';
import { createFlowEvents } from '@sesame/flow-events';
import { createLogger } from '@sesame/platform';
import { eventually } from '@sesame/testing';
import { configSchema } from './config';
import { runActivityLog } from './testing/running-service';

// Recent: the service purges records past their retention (90 days) when it starts.
const T0 = Date.now() - 60_000;
const engines = tempEngines('activity');
const logger = createLogger({ service: 'activity-log', level: 'silent' });
const config = configSchema.parse({ SESAME_ENV: 'test' });
const query = { tenantId: 't1', appId: 'a1', timeStart: T0, timeEnd: T0 + 1, pageSize: 0, skip: 0 };

/** Runs the service on the engine with a durable bus on it; returns the flow ids it serves once `ready` holds. */
async function served(engine: EmbeddedStore, ready: (ids: string[]) => boolean): Promise<string[]> {
  const bus = createEmbeddedEventBus(engine);
  const { client, stop } = await runActivityLog(config, { logger, bus, embedded: engine });
  try {
    return await eventually(
      async () => (await client.queryActivityLogs(query)).activityLogs.map((r) => r.id),
      ready,
      10_000,
    );
  } finally {
    await stop();
    await bus.close();
  }
}

describe('activity-log service on the embedded engine and bus', () => {
  it('a flow event published before a restart and never consumed is logged after it, and the log stays after the next', async () => {
    const dir = engines.dir();
    let engine = engines.open(dir);
    let bus = createEmbeddedEventBus(engine);
    // Published while activity-log is not consuming (it had not started, or the process died first).
    await createFlowEvents({ publisher: bus.publisher, logger }).record({
      flowId: 'f1',
      tenantId: 't1',
      appId: 'a1',
      timestamp: T0,
      action: 'auth_start_oidc',
      clientIp: '203.0.113.7',
    });
    await bus.close();
    engine.close();

    engine = engines.open(dir);
    assert.deepEqual(await served(engine, (ids) => ids.length > 0), ['f1']);
    engine.close();

    engine = engines.open(dir);
    bus = createEmbeddedEventBus(engine);
    assert.equal((bus as unknown as { outboxSize(): number }).outboxSize(), 0, 'consumed: not in the outbox');
    await bus.close();
    assert.deepEqual(await served(engine, (ids) => ids.length > 0), ['f1'], 'read from the store');
  });
});
