import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { MemoryEventBus } from '@sesame/events';
import { createFlowEvents } from '@sesame/flow-events';
import { createLogger } from '@sesame/platform';
import { events, topics } from '@sesame/proto';
import { eventually } from '@sesame/testing';
import { configSchema } from './config';
import { runActivityLog } from './testing/running-service';

const T0 = 1_700_000_000_000;

describe('activity-log service (embedded: in-memory bus and repositories)', () => {
  it('consumes flow and admin events from the shared bus and serves them over ActivityLogs', async () => {
    const bus = new MemoryEventBus();
    const logger = createLogger({ service: 'activity-log', level: 'silent' });
    const config = configSchema.parse({ SESAME_ENV: 'test' });
    const { client, stop } = await runActivityLog(config, { logger, bus });
    try {
      await createFlowEvents({ publisher: bus.publisher, logger }).record({
        flowId: 'f1',
        tenantId: 't1',
        appId: 'a1',
        timestamp: T0,
        action: 'auth_start_oidc',
        clientIp: '203.0.113.7',
      });
      const admin = events.AdminEvent.fromPartial({
        id: 'adm-1',
        activityType: 'administrator_enter_tenant',
        tenantId: 't1',
        timestampMs: T0,
        data: { isTenantSwitch: false },
      });
      await bus.publisher.publish(topics.adminEvents, [
        { key: 't1', value: events.AdminEvent.encode(admin).finish() },
      ]);
      const logs = await eventually(
        () =>
          client.queryActivityLogs({
            tenantId: 't1',
            appId: 'a1',
            timeStart: T0,
            timeEnd: T0 + 1,
            pageSize: 0,
            skip: 0,
          }),
        (r) => r.activityLogs.length === 1,
      );
      assert.equal(logs.activityLogs[0]?.id, 'f1');
      const adminLogs = await eventually(
        () => client.queryAdminLogs({ tenantId: 't1', fromTime: T0, toTime: T0 + 1, skip: 0, take: 0 }),
        (r) => r.count === 1,
      );
      assert.deepEqual(adminLogs.events[0]?.data, { isTenantSwitch: false });
    } finally {
      await stop();
    }
  });

  it('reads its retention settings with defaults of 90 and 365 days', () => {
    const defaults = configSchema.parse({});
    assert.equal(defaults.SESAME_ACTIVITY_RETENTION_DAYS, 90);
    assert.equal(defaults.SESAME_ADMIN_RETENTION_DAYS, 365);
    const set = configSchema.parse({
      SESAME_ACTIVITY_RETENTION_DAYS: '7',
      SESAME_ADMIN_RETENTION_DAYS: '30',
    });
    assert.deepEqual([set.SESAME_ACTIVITY_RETENTION_DAYS, set.SESAME_ADMIN_RETENTION_DAYS], [7, 30]);
    assert.equal(configSchema.safeParse({ SESAME_ACTIVITY_RETENTION_DAYS: '0' }).success, false);
  });
});
